"""Quantisation: a float model rewritten into the quantised model its manifest names (docs/QUANT.md)."""

from .accuracy import Accuracy
from .model import QuantizedModel, QuantOptions, quantize_model

__all__ = ["Accuracy", "QuantOptions", "QuantizedModel", "quantize_model"]
