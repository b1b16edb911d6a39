"""Files uploaded the ``files_upload_v2`` way: reserve, post the bytes, complete."""

from __future__ import annotations

from typing import Any

from tests.e2e.fake_slack.errors import SlackError
from tests.e2e.fake_slack.ids import BOT_USER_ID, Ids
from tests.e2e.fake_slack.records import UploadedFile

__all__ = ["Uploads", "file_info"]


class Uploads:
    """Upload slots by file id, from files.getUploadURLExternal to files.completeUploadExternal."""

    def __init__(self, ids: Ids, base_url: str) -> None:
        self._ids = ids
        self._base_url = base_url
        self._files: dict[str, UploadedFile] = {}
        # Files people shared, by the path of their private download URL.
        self._shared: dict[str, bytes] = {}

    def reserve(self, filename: str, length: int) -> tuple[UploadedFile, str]:
        """A new upload slot and the URL its bytes are to be posted to."""
        file = UploadedFile(id=self._ids.new("F"), filename=filename, length=length)
        self._files[file.id] = file
        return file, f"{self._base_url}/upload/{file.id}"

    def store(self, file_id: str, content: bytes) -> bool:
        """Keep the posted bytes of a reserved file; False when no such upload was reserved."""
        file = self._files.get(file_id)
        if file is None:
            return False
        file.content = content
        return True

    def claim(self, entries: Any) -> list[UploadedFile]:
        """The uploaded files named by a ``files`` parameter (``[{"id", "title"}]``), titled."""
        if not isinstance(entries, list) or not entries:
            raise SlackError("invalid_arguments", "[ERROR] files must be a non-empty array")
        files = []
        for entry in entries:
            file = self._files.get(str(entry.get("id"))) if isinstance(entry, dict) else None
            if file is None or file.content is None or file.completed:
                raise SlackError("file_not_found", f"[ERROR] no uploaded file for {entry!r}")
            file.title = entry.get("title") or file.filename
            files.append(file)
        return files

    def complete(
        self,
        files: list[UploadedFile],
        *,
        channel_id: str | None,
        thread_ts: str | None,
        initial_comment: str | None,
    ) -> None:
        """Mark claimed files as shared, where and with which comment."""
        for file in files:
            file.channel_id = channel_id
            file.thread_ts = thread_ts
            file.initial_comment = initial_comment
            file.completed = True

    def share(self, user: str, filename: str, content: bytes, mimetype: str) -> dict[str, Any]:
        """A file a person shares; the file object of the ``file_share`` message event."""
        file_id = self._ids.new("F")
        path = f"/files-pri/T1-{file_id}/download/{filename}"
        self._shared[path] = content
        kind = filename.rpartition(".")[2]
        return {
            "id": file_id,
            "name": filename,
            "title": filename,
            "mimetype": mimetype,
            "filetype": kind,
            "size": len(content),
            "user": user,
            "url_private": f"{self._base_url}{path.replace('/download', '')}",
            "url_private_download": f"{self._base_url}{path}",
        }

    def download(self, path: str) -> bytes | None:
        """The bytes of a shared file by its download path; None when there is none."""
        return self._shared.get(path)

    def completed(self) -> list[UploadedFile]:
        """Files whose upload was completed, in the order they were reserved."""
        return [file for file in self._files.values() if file.completed]


def file_info(file: UploadedFile) -> dict[str, Any]:
    """The file object Slack returns for an uploaded file."""
    return {
        "id": file.id,
        "name": file.filename,
        "title": file.title,
        "size": len(file.content or b""),
        "user": BOT_USER_ID,
    }
