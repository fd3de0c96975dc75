"""Record formats: PBN, LIN and the JSON Lines table log (``load/loads/dump/dumps`` each)."""

from controller.records.model import BoardRecord

__all__ = ["BoardRecord"]
