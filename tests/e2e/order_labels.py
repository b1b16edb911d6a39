"""What a user sees and presses when ordering, the same on every chat platform."""

TITLE = "Yapay zekâ ile içerik üretimi"
SHORT = "Kısa · 300-500 kelime · 15,00 TL"
MEDIUM = "Orta · 800-1200 kelime · 25,00 TL"
VERY_LONG = "Çok Uzun · 2500+ kelime · 50,00 TL"
