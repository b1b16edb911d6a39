"""Titles read from a .txt or .csv file, and the files refused as a whole."""

from __future__ import annotations

import pytest

from bot.core.ordering.title_files import (
    MAX_FILE_BYTES,
    FileProblem,
    TitleFileRefused,
    TitleRow,
    read_titles,
)


def read(name: str, text: str | bytes) -> list[TitleRow]:
    content = text.encode() if isinstance(text, str) else text
    return read_titles(name, content, len(content))


def refusal(name: str, content: bytes | None, size: int | None = None) -> FileProblem:
    with pytest.raises(TitleFileRefused) as refused:
        read_titles(name, content, len(content or b"") if size is None else size)
    return refused.value.problem


def test_a_text_file_has_a_title_a_line_blank_lines_skipped() -> None:
    rows = read("basliklar.txt", "Birinci başlık burada\n\n  İkinci   başlık burada \r\n")
    assert rows == [TitleRow("Birinci başlık burada"), TitleRow("İkinci başlık burada")]


def test_a_csv_without_a_title_heading_gives_its_first_column() -> None:
    rows = read("liste.csv", "Birinci başlık burada,x\nİkinci başlık burada,y\n")
    assert [row.title for row in rows] == ["Birinci başlık burada", "İkinci başlık burada"]


def test_a_csv_names_its_columns_in_turkish_or_english_in_any_order() -> None:
    turkish = read("a.csv", "\ufeffNo;BAŞLIK;Ton;Boyut\n1;Yapay zekâ ve eğitim;Samimi;2\n")
    english = read("b.csv", "size,title\nKısa,Bulut bilişimin tarihi\n")
    assert turkish == [TitleRow("Yapay zekâ ve eğitim", "Samimi", "2")]
    assert english == [TitleRow("Bulut bilişimin tarihi", "", "Kısa")]


def test_a_turkish_excel_export_is_read_in_its_code_page() -> None:
    rows = read("excel.csv", "baslik\nÇiğ köfte tarifleri ve püf noktaları\n".encode("cp1254"))
    assert rows == [TitleRow("Çiğ köfte tarifleri ve püf noktaları")]


def test_files_that_cannot_be_taken_are_refused_whole() -> None:
    assert refusal("a.pdf", b"%PDF-1.4") is FileProblem.KIND
    assert refusal("a.txt", None, MAX_FILE_BYTES + 1) is FileProblem.TOO_LARGE
    assert refusal("a.txt", b"x" * (MAX_FILE_BYTES + 1)) is FileProblem.TOO_LARGE
    assert refusal("a.csv", b"PK\x03\x04\x00\x00binary") is FileProblem.UNREADABLE
    assert refusal("a.txt", b"\n \n") is FileProblem.EMPTY
    many = "\n".join(f"Başlık numarası {n}" for n in range(101)).encode()
    assert refusal("a.txt", many) is FileProblem.TOO_MANY


@pytest.mark.parametrize("name", ["a.txt", "a.csv"])
def test_a_file_is_refused_at_its_101st_title_without_reading_the_rest(name: str) -> None:
    many = "\n".join(f"Başlık numarası {n}" for n in range(20_000)).encode()

    with pytest.raises(TitleFileRefused) as refused:
        read_titles(name, many, len(many))

    assert refused.value.problem is FileProblem.TOO_MANY
    assert refused.value.count == 101, "counted no further than the first title past the limit"
