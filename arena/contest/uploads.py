"""A contestant's upload, checked and unpacked: one source file, or a folder bot as a .zip or .tar.gz.

Every contestant may be hostile, and so is everything an upload says about itself: its file
name, its members' names, types, modes and declared sizes.  ``inspect`` reads the upload in
memory and refuses it (``UploadRefused``, whose message is shown to the contestant) or describes
it; ``unpack`` first inspects it, then writes it into a new folder:

* a source of a language of the table (``arena languages``), by its ending, as ``dest/NAME.EXT``;
* an archive as the folder bot ``dest/STEM/`` (``arena.bots``' rules: it holds a language's main
  file or an executable ``run``).  An archive whose members all lie in one top folder
  (``bot/main.py``) has that folder as the bot; otherwise its root is the bot.

An archive may hold plain files and folders only: no symbolic or hard link, device, FIFO or
socket; no member named with ``..``, an absolute path, a drive letter or a backslash, nor with a
control or invisible character (``arena.text.name_problem``), nor longer than 255 bytes a
component or 1024 a path; no two members with one name once ``.`` components, empty components
and Unicode normalisation are set aside; at most ``max_files`` files (and as many folders); at
most ``max_unpacked_bytes`` once unpacked, counted while decompressing, in chunks, whatever the
archive declares, so that a bomb stops there.  A nested archive is a file like any other.
macOS's ``__MACOSX/`` folder (resource forks Finder adds to a zip) is checked like the rest and
then left out.

Members are written by this module, never by ``extractall``: files 0644 (0755 when the archive
gives them an executable bit), folders 0755, each created new (``O_EXCL``, ``O_NOFOLLOW``, no
link ever made), with no owner, time or extended attribute of the archive's.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import os
import re
import shutil
import stat
import struct
import tarfile
import unicodedata
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, NoReturn

from arena import bots
from arena import languages as table
from arena.errors import ArenaError
from arena.languages import Languages
from arena.text import display, name_problem

#: The archives an upload may be, by ending (any case): the format each is read as.
ARCHIVES = {".zip": "zip", ".tar.gz": "tar.gz", ".tgz": "tar.gz"}
#: Bytes read (and decompressed) at a time.
CHUNK = 64 * 2**10
#: Bytes of UTF-8 a member's name may take: each component, and the whole path.
MAX_COMPONENT, MAX_PATH = 255, 1024
#: A top folder of an archive that is checked, then left out: macOS Finder's resource forks.
IGNORED = "__MACOSX"
#: Bytes of a tar stream counted per member allowed, besides the files' own: headers, long-name
#: and pax records, padding (a stream that holds more is refused before tarfile keeps it in memory).
TAR_OVERHEAD = 4 * 2**10
#: A path's first component that names a drive (``C:``).
DRIVE = re.compile(r"[A-Za-z]:")
#: The compression methods of a zip read here: every zip tool's default, and stored.  (zipfile
#: decompresses bzip2 and LZMA without a bound on each call's output: a few KiB can become GiB.)
ZIP_METHODS = frozenset({zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED})
#: The special files of a zip member's Unix mode, as a message names them.
SPECIAL = {stat.S_IFLNK: "a symbolic link", stat.S_IFCHR: "a character device",
           stat.S_IFBLK: "a block device", stat.S_IFIFO: "a FIFO (named pipe)", stat.S_IFSOCK: "a socket"}
#: What zipfile, tarfile, gzip and zlib raise on malformed or hostile data (gzip's BadGzipFile is an
#: OSError; zipfile's "encrypted" a RuntimeError, its unknown methods NotImplementedError).
BAD_DATA = (zipfile.BadZipFile, zipfile.LargeZipFile, tarfile.TarError, OSError, EOFError, ValueError,
            RuntimeError, OverflowError, struct.error, zlib.error)
#: Said of a member that is neither a plain file nor a folder.
PLAIN = "an archive holds plain files and folders only"


@dataclass(frozen=True)
class UploadLimits:
    """What an upload may take."""

    max_bytes: int = 1 * 2**20  # the upload as sent
    max_files: int = 100  # files in an archive (and as many folders)
    max_unpacked_bytes: int = 16 * 2**20  # all files once unpacked, counted while reading


class UploadRefused(ArenaError):
    """An upload that is not taken; the message (shown to the contestant) says what and why."""


@dataclass(frozen=True)
class Upload:
    """An upload that can be a bot."""

    kind: str  # "source" or "archive"
    name: str  # the bot's name as it will play: the file's stem, or the archive's
    sha256: str  # of the bytes as uploaded
    size: int  # bytes as uploaded
    files: tuple[str, ...]  # the bot's files, relative to its folder (a source: its one file name), sorted


def payload(path: Path) -> tuple[str, bytes]:
    """What is uploaded for the bot at ``path`` (``arena submit``, and ``arena check --contest``, which
    checks what the server would receive): its file as it is, or a folder as a zip of its files (none
    hidden, no ``__pycache__``), under the folder's name."""
    if path.is_dir():
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for item in sorted(path.rglob("*")):
                if item.is_file() and not any(part.startswith(".") or part == "__pycache__"
                                              for part in item.relative_to(path).parts):
                    archive.write(item, f"{path.name}/{item.relative_to(path)}")
        return f"{path.name}.zip", buffer.getvalue()
    try:
        return path.name, path.read_bytes()
    except OSError as exc:
        raise ArenaError(f"cannot read bot {str(path)!r}: {exc.strerror}") from None


def is_archive(filename: str) -> bool:
    """Whether an upload of this name is read as an archive (a folder bot)."""
    return _archive_ending(filename) is not None


def inspect(filename: str, data: bytes, limits: UploadLimits, languages: Languages | None = None) -> Upload:
    """Refuse (``UploadRefused``) or describe an upload, without writing anything."""
    return _inspect(filename, data, limits, languages or table.load())[0]


def unpack(filename: str, data: bytes, dest: Path, limits: UploadLimits,
           languages: Languages | None = None) -> Upload:
    """Write an upload into ``dest``, a new folder this makes (its parent must exist): a source as
    ``dest/FILENAME``, an archive as the folder bot ``dest/NAME/``.  Everything is checked
    (``inspect``) before ``dest`` is made, and checked again as it is written; nothing is written
    outside ``dest``; if writing fails, ``dest`` is removed."""
    languages = languages or table.load()
    upload, form, root = _inspect(filename, data, limits, languages)
    dest = Path(dest)
    os.mkdir(dest, 0o755)  # (FileExistsError: the server's mistake, not the contestant's)
    try:
        os.chmod(dest, 0o755)  # (whatever the umask)
        if form == "source":
            _write_file(dest / filename, [data], executable=False)
        else:
            written = _walk(_where(filename), form, data, limits, _Writer(dest / upload.name, root))
            assert tuple(sorted(written.bot_files(languages))) == upload.files, "the archive read differently"
    except BaseException:
        shutil.rmtree(dest, ignore_errors=True)
        raise
    return upload


def _inspect(filename: str, data: bytes, limits: UploadLimits,
             languages: Languages) -> tuple[Upload, str, str]:
    """The upload described, what it is ("source", "zip", "tar.gz"), and for an archive the bot's
    folder inside it ("": its root); or a refusal."""
    where = _where(filename)
    name, form = _name_and_form(where, filename, data, limits, languages)
    sha = hashlib.sha256(data).hexdigest()
    if form == "source":
        return Upload("source", name, sha, len(data), (filename,)), form, ""
    catalogue = _walk(where, form, data, limits)
    files = catalogue.bot_files(languages)
    return Upload("archive", name, sha, len(data), tuple(sorted(files))), form, catalogue.root()


def _where(filename: str) -> str:
    """How a message names the upload."""
    return f"upload '{display(filename)}'"


# ---------------------------------------------------------------- the upload's own name


def _archive_ending(filename: str) -> str | None:
    """The archive ending of a file name (``.tar.gz``), or None."""
    lower = filename.lower()
    return next((ending for ending in ARCHIVES if lower.endswith(ending) and len(lower) > len(ending)), None)


def _name_and_form(where: str, filename: str, data: bytes, limits: UploadLimits,
                   languages: Languages) -> tuple[str, str]:
    """The bot's name and what the upload is ("source", "zip" or "tar.gz"), or a refusal of its
    size or its file name."""
    if len(data) > limits.max_bytes:
        raise UploadRefused(f"{where} takes {_size(len(data))}: an upload may take {_size(limits.max_bytes)}")
    if not data:
        raise UploadRefused(f"{where} is empty")
    if problem := name_problem(filename):
        raise UploadRefused(f"{where}: its name {problem}; rename it")
    if len(filename.encode("utf-8", "surrogatepass")) > MAX_COMPONENT:
        raise UploadRefused(f"{where}: its name is longer than {MAX_COMPONENT} bytes; rename it")
    ending = _archive_ending(filename)
    name = filename[:-len(ending)] if ending else Path(filename).stem
    if name.startswith(bots.HELPER_STARTS):
        raise UploadRefused(f"{where}: a bot's name may not start with '_' or '.' (the arena takes such "
                            "files for helpers); rename it")
    if ending:
        return name, ARCHIVES[ending]
    if languages.of(filename) is None:
        endings = ", ".join(languages.suffixes())
        raise UploadRefused(f"{where}: '{display(Path(filename).suffix)}' is no language's ending; a bot "
                            f"is a source ({endings}) or a folder bot packed as {', '.join(ARCHIVES)}")
    return name, "source"


def _size(count: int) -> str:
    """A number of bytes as a message says it."""
    for unit, scale in (("MiB", 2**20), ("KiB", 2**10)):
        if count >= scale and count % scale == 0:
            return f"{count // scale} {unit}"
    return f"{count} bytes"


# ---------------------------------------------------------------- the members of an archive


class _Catalogue:
    """The members of an archive met so far, each checked as it is met: its name, the files'
    count and the bytes they unpack to."""

    def __init__(self, where: str, limits: UploadLimits):
        self.where, self.limits = where, limits
        self.files: dict[str, bool] = {}  # path (normalised) -> executable
        self.folders: set[str] = set()  # paths (normalised), those of the files' parents too
        self.keys: dict[str, str] = {}  # a path's Unicode normal form -> the path first met with it
        self.unpacked = 0  # bytes of the files, as read so far

    def add(self, raw: str, folder: bool, executable: bool) -> str:
        """Check one member (its name as the archive gives it) and add it; its normalised path
        ("" for the archive's root itself)."""
        path = _path(self.where, raw)
        if not path and not folder:
            self.refuse(raw, "names no file")
        parts = path.split("/") if path else []
        for depth in range(1, len(parts)):
            self._claim(raw, "/".join(parts[:depth]), folder=True, parent=True)
        if path:
            self._claim(raw, path, folder, parent=False)
        if not folder:
            self.files[path] = executable
            if len(self.files) > self.limits.max_files:
                raise UploadRefused(f"{self.where} holds more than {self.limits.max_files} files (the limit)")
        if len(self.folders) > self.limits.max_files:
            raise UploadRefused(f"{self.where} holds more than {self.limits.max_files} folders (the limit)")
        return path

    def _claim(self, raw: str, path: str, folder: bool, parent: bool) -> None:
        """Take ``path`` for a file or a folder (``parent``: one the member lies in); refuse a second
        file of one name, a name that is both a file and a folder, and two names that differ only in
        their Unicode form."""
        key = unicodedata.normalize("NFC", path)
        earlier = self.keys.setdefault(key, path)
        if earlier != path:
            self.refuse(raw, f"names '{display(path)}', which differs from the earlier '{display(earlier)}' "
                             "only in how its letters are encoded (Unicode normalisation): rename one")
        if path in self.files and parent:
            self.refuse(raw, f"lies in '{display(path)}', which is already a file of the archive")
        if path in self.files:
            self.refuse(raw, f"names '{display(path)}' again: it is already a file of the archive")
        if not folder and path in self.folders:
            self.refuse(raw, f"is a file named '{display(path)}', which is already a folder of the archive")
        if folder:
            self.folders.add(path)

    def count(self, raw: str, size: int) -> None:
        """Count bytes a file unpacks to; refuse past the limit, at once."""
        self.unpacked += size
        if self.unpacked > self.limits.max_unpacked_bytes:
            raise UploadRefused(f"{self.where} unpacks to more than {_size(self.limits.max_unpacked_bytes)} "
                                f"(the limit; stopped in entry '{display(raw)}')")

    def refuse(self, raw: str, why: str) -> NoReturn:
        raise UploadRefused(f"{self.where}: entry '{display(raw)}' {why}")

    def root(self) -> str:
        """The bot's folder in the archive: its one top folder, or "" (its root)."""
        tops = {path.split("/")[0] for path in (*self.files, *self.folders)} - {IGNORED}
        if len(tops) == 1 and (top := tops.pop()) in self.folders:
            return top
        return ""

    def bot_files(self, languages: Languages) -> dict[str, bool]:
        """The bot's files (relative to its folder -> executable), or a refusal: none, or no main
        program (``arena.bots.main_among``), or a ``run`` that cannot be executed."""
        root = self.root()
        files = {path[len(root) + 1:] if root else path: executable for path, executable in self.files.items()
                 if path.split("/")[0] != IGNORED}
        if not files:
            raise UploadRefused(f"{self.where} holds no files")
        main = bots.main_among(files.__contains__, languages)
        if main is None:
            mains = bots.folder_mains(languages)
            deeper = sorted(path for path in files if path.rsplit("/", 1)[-1] in mains)
            hint = f" (it holds '{display(deeper[0])}': the main file goes at the top)" if deeper else ""
            place = f"its folder '{display(root)}'" if root else "it"
            raise UploadRefused(f"{self.where} holds no bot: a folder bot holds one of {', '.join(mains)}, "
                                f"and {place} holds none{hint}")
        if main == bots.RUN and not files[main]:
            raise UploadRefused(f"{self.where}: its '{bots.RUN}' is not executable: set its executable "
                                f"bit (chmod +x {bots.RUN}) before packing it, or give the bot a language's "
                                "main file")
        return files


def _path(where: str, raw: str) -> str:
    """A member's name, checked and normalised: ``/``-separated components without ``.`` or
    empty ones."""
    shown = f"{where}: entry '{display(raw)}'"
    if "\\" in raw:
        raise UploadRefused(f"{shown} holds a backslash (a Windows path?): an archive's paths are "
                            "separated by '/'")
    if raw.startswith("/"):
        raise UploadRefused(f"{shown} is an absolute path: an archive's paths are relative to its folder")
    if DRIVE.match(raw):
        raise UploadRefused(f"{shown} starts with a drive letter: an archive's paths are relative to its "
                            "folder")
    if len(raw.encode("utf-8", "surrogatepass")) > MAX_PATH:
        raise UploadRefused(f"{shown} is longer than {MAX_PATH} bytes (the limit of a path)")
    parts = [part for part in raw.split("/") if part not in ("", ".")]
    for part in parts:
        if part == "..":
            raise UploadRefused(f"{shown} climbs out of its folder ('..'): an archive's paths stay inside it")
        if problem := name_problem(part):
            raise UploadRefused(f"{shown}: the name '{display(part)}' {problem}; rename it")
        if len(part.encode("utf-8")) > MAX_COMPONENT:
            raise UploadRefused(f"{shown}: the name '{display(part)}' is longer than {MAX_COMPONENT} bytes "
                                "(the limit of a file name)")
    return "/".join(parts)


# ---------------------------------------------------------------- reading an archive

#: A member as a reader yields it: its name as the archive gives it, its normalised path, whether it
#: is a folder, its executable bit, and (a file's) its content to read.
_Member = tuple[str, str, bool, bool, "BinaryIO | None"]


def _walk(where: str, form: str, data: bytes, limits: UploadLimits,
          writer: _Writer | None = None) -> _Catalogue:
    """Read every member of an archive, checking each as it comes (``_Catalogue``) and reading each
    file's content through, in chunks, counted; with ``writer``, writing them as they come."""
    catalogue = _Catalogue(where, limits)
    members = (_zip_members if form == "zip" else _tar_members)(where, data, catalogue)
    while True:
        with _reading(where, form):
            member = next(members, None)
        if member is None:
            return catalogue
        raw, path, folder, executable, content = member
        if writer is not None and folder:
            writer.folder(path)
        if content is None:
            continue
        with writer.file(path, executable) if writer else contextlib.nullcontext() as write:
            for chunk in _chunks(where, form, content):
                catalogue.count(raw, len(chunk))
                if write is not None:
                    write(chunk)


@contextlib.contextmanager
def _reading(where: str, form: str) -> Iterator[None]:
    """Malformed data met while reading (not while writing) as a refusal that says what the library
    found."""
    try:
        yield
    except BAD_DATA as exc:
        raise UploadRefused(f"{where} is not a valid {form} archive ({display(str(exc))})") from None


def _chunks(where: str, form: str, content: BinaryIO) -> Iterator[bytes]:
    """A member's content, a chunk at a time (the decompressors are asked for no more at once)."""
    while True:
        with _reading(where, form):
            chunk = content.read(CHUNK)
        if not chunk:
            return
        yield chunk


def _zip_members(where: str, data: bytes, catalogue: _Catalogue) -> Iterator[_Member]:
    """A zip's members: every entry's name and type checked from the central directory first (its
    Unix mode is the high half of the external attributes), then each file's content in turn (the
    declared sizes are not trusted: the content is counted as it is decompressed)."""
    archive = zipfile.ZipFile(io.BytesIO(data))
    entries = []
    for info in archive.infolist():
        raw = info.orig_filename  # (before zipfile cuts the name at a NUL)
        mode = info.external_attr >> 16
        kind = stat.S_IFMT(mode)
        if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
            catalogue.refuse(raw, f"is {SPECIAL.get(kind, f'a file of type {kind:#o}')}: {PLAIN}")
        folder = raw.endswith("/") or kind == stat.S_IFDIR
        if not folder and info.flag_bits & 0x1:
            catalogue.refuse(raw, "is encrypted: pack the bot without a password")
        if not folder and info.compress_type not in ZIP_METHODS:
            catalogue.refuse(raw, f"is compressed with method {info.compress_type} (bzip2, LZMA, ...): pack "
                                  "it with deflate, every zip tool's default")
        executable = not folder and bool(mode & 0o111)
        entries.append((raw, catalogue.add(raw, folder, executable), folder, executable, info))
    for raw, path, folder, executable, info in entries:
        yield raw, path, folder, executable, None if folder else archive.open(info)


# tarfile's own defence, extractall(filter="data"), is not enough here.  It strips a leading '/',
# refuses a path that resolves outside the destination (following the links already written),
# devices and FIFOs, links that point outside, and drops owners, set-uid bits and group/other
# write.  It still writes symbolic and hard links that stay inside (a bot must hold none), keeps
# modification times, lets a later member overwrite an earlier one of the same name, counts
# neither files nor bytes (a bomb fills the disk), takes names with control characters,
# backslashes or any length, writes as it reads (a refusal half-way leaves the first members
# written), and its checks, made on paths, have been got round with chains of links (CVE-2025-4517
# and its kin).  Here nothing but plain files and folders is accepted, every name is checked and
# normalised and must be new, sizes are counted while decompressing, the whole archive is read
# before anything is written, and each member is written by this module, created new.
def _tar_members(where: str, data: bytes, catalogue: _Catalogue) -> Iterator[_Member]:
    """A tar.gz's members in the order of the stream, each checked as it comes.  The decompressed
    stream (headers and all) is bounded too, so that no header tarfile reads into memory (a pax
    record, a GNU long name) can be larger than the files may be."""
    limits = catalogue.limits
    stream = _Bounded(gzip.GzipFile(fileobj=io.BytesIO(data), mode="rb"),
                      limits.max_unpacked_bytes + TAR_OVERHEAD * (2 * limits.max_files + 4), where)
    with tarfile.open(fileobj=stream, mode="r|") as archive:  # (a stream: each member read once, in order)
        for member in archive:
            folder = _tar_is_folder(catalogue, member)
            executable = not folder and bool(member.mode & 0o111)
            path = catalogue.add(member.name, folder, executable)
            yield member.name, path, folder, executable, None if folder else archive.extractfile(member)


def _tar_is_folder(catalogue: _Catalogue, member: tarfile.TarInfo) -> bool:
    """Whether a tar member is a folder (else a plain file), or a refusal of any other type."""
    if member.issparse():
        why = "a sparse file"
    elif member.isreg():
        return False
    elif member.isdir():
        return True
    elif member.issym():
        why = f"a symbolic link (to '{display(member.linkname)}')"
    elif member.islnk():
        why = f"a hard link (to '{display(member.linkname)}')"
    elif member.ischr() or member.isblk():
        why = f"a {'character' if member.ischr() else 'block'} device"
    elif member.isfifo():
        why = "a FIFO (named pipe)"
    else:
        why = f"a member of tar type {member.type!r}"
    catalogue.refuse(member.name, f"is {why}: {PLAIN}")


class _Bounded:
    """A stream read through, at most ``CHUNK`` bytes at a time, that refuses the upload as soon as
    more than ``limit`` bytes have come out of it."""

    def __init__(self, stream: BinaryIO, limit: int, where: str):
        self.stream, self.limit, self.where, self.done = stream, limit, where, 0

    def read(self, size: int | None = -1) -> bytes:
        data = self.stream.read(CHUNK if size is None or size < 0 else min(size, CHUNK))
        self.done += len(data)
        if self.done > self.limit:
            raise UploadRefused(f"{self.where} unpacks to a tar stream of more than {_size(self.limit)} "
                                "(the limit, with the files' headers)")
        return data


# ---------------------------------------------------------------- writing


class _Writer:
    """Writes an archive's members into ``home`` (the bot's folder, made here), with ``root`` (the
    bot's folder inside the archive) stripped from their paths."""

    def __init__(self, home: Path, root: str):
        self.home, self.root = home, root
        _folder(home)

    def _target(self, path: str) -> Path | None:
        """Where a member goes, or None: the bot's folder itself, or a member left out."""
        if self.root:
            relative = path[len(self.root) + 1:] if path.startswith(self.root + "/") else ""
        else:
            relative = "" if path.split("/")[0] == IGNORED else path
        return self.home / relative if relative else None

    def folder(self, path: str) -> None:
        if (target := self._target(path)) is not None:
            _folder(target)

    @contextlib.contextmanager
    def file(self, path: str, executable: bool) -> Iterator[Callable[[bytes], object] | None]:
        """A member's file, made new, to write its content with (None: a member left out)."""
        target = self._target(path)
        if target is None:
            yield None
            return
        _folder(target.parent)
        with _created(target, executable) as out:
            yield out.write


def _folder(place: Path) -> None:
    """Make a folder, 0755, and those missing above it.  (No link is ever made in ``dest``, so no
    path followed here can lead out of it; one met is refused by ``os.mkdir``'s parent or the lstat.)"""
    try:
        os.mkdir(place, 0o755)
    except FileExistsError:
        if not stat.S_ISDIR(os.lstat(place).st_mode):
            raise
        return
    except FileNotFoundError:
        _folder(place.parent)
        os.mkdir(place, 0o755)
    os.chmod(place, 0o755)  # (whatever the umask)


@contextlib.contextmanager
def _created(target: Path, executable: bool) -> Iterator[BinaryIO]:
    """A new file (never one that exists, never through a link), 0644 or 0755 whatever the umask."""
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "wb") as out:
        os.fchmod(fd, 0o755 if executable else 0o644)
        yield out


def _write_file(target: Path, chunks: list[bytes], executable: bool) -> None:
    with _created(target, executable) as out:
        for chunk in chunks:
            out.write(chunk)
