"""The fixed writing tones and article sizes, with the sizes' prices and durations."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SIZES", "TONES", "Size", "Tone"]


@dataclass(frozen=True)
class Tone:
    """A writing tone the service offers."""

    id: int
    name: str
    description: str


@dataclass(frozen=True)
class Size:
    """An article size: its price, its length and how long the service takes to write it."""

    id: int
    name: str
    word_range: str
    reading_time: str
    cost: int
    words: int
    # Nominal generation time in seconds at speed 1, from the service's usage notes.
    seconds: tuple[float, float]


TONES = (
    Tone(1, "Profesyonel", "Resmi, teknik bir dil"),
    Tone(2, "Samimi", "Sıcak, yakın bir dil"),
    Tone(3, "Eğitici", "Öğretici, açıklayıcı bir dil"),
    Tone(4, "İkna Edici", "Satış odaklı, motive edici bir dil"),
    Tone(5, "Yaratıcı", "Sanatsal, özgün bir dil"),
)

SIZES = (
    Size(1, "Kısa", "300-500", "2-3 dakika", 15, 400, (60.0, 120.0)),
    Size(2, "Orta", "800-1200", "4-6 dakika", 25, 1000, (180.0, 240.0)),
    Size(3, "Uzun", "1500-2000", "7-10 dakika", 35, 1700, (300.0, 420.0)),
    Size(4, "Çok Uzun", "2500+", "12+ dakika", 50, 2600, (420.0, 600.0)),
)
