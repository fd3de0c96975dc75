"""Seat-unit firmware: bidding-box matrix, MFRC522 readers, button, LED, buzzer, link to the Pi."""

VERSION = (1, 1, 0)
