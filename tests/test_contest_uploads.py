"""arena.contest.uploads: each attack as a contestant would pack it, and uploads that become real bots.

Every refusal is asked of ``inspect`` and of ``unpack``; each time the destination must not exist
and nothing beside it may change (an empty sentinel folder there is what the link attacks aim at)."""

from __future__ import annotations

import io
import json
import random
import shutil
import stat
import struct
import subprocess
import sys
import tarfile
import time
import tracemalloc
import unicodedata
import warnings
import zipfile
import zlib
from pathlib import Path

import pytest
from test_bots import ADD_C, needs_cc

from arena.bots import Bot, prepare_bot
from arena.contest.uploads import Upload, UploadLimits, UploadRefused, inspect, unpack
from arena.sandbox import Limits, run_bot
from arena.text import is_unsafe

REPO = Path(__file__).resolve().parent.parent
LIMITS = UploadLimits()
MAIN = b"print('hello')\n"
GiB = 2**30


# ---------------------------------------------------------------- building archives as an attacker would


def zip_of(*entries: tuple[str | zipfile.ZipInfo, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A zip of (name or ZipInfo, content) entries, in order (duplicates too)."""
    buffer = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(buffer, "w", method) as archive:
        warnings.simplefilter("ignore")  # ("Duplicate name": the attacker means it)
        for name, content in entries:
            archive.writestr(name, content)
    return buffer.getvalue()


def zip_info(name: str, mode: int) -> zipfile.ZipInfo:
    """An entry with a Unix mode (file type and permissions) in its external attributes."""
    info = zipfile.ZipInfo(name)
    info.create_system = 3  # Unix
    info.external_attr = mode << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def member(name: str, kind: bytes = tarfile.REGTYPE, mode: int = 0o644,
           linkname: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.mode, info.linkname = kind, mode, linkname
    return info


def tar_gz_of(*members: tuple[str | tarfile.TarInfo, bytes | None]) -> bytes:
    """A tar.gz of (name or TarInfo, content) members, in order; content None: no data (a link, a
    folder, a device)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT) as archive:
        for info, content in members:
            info = member(info) if isinstance(info, str) else info
            info.size = len(content or b"")
            archive.addfile(info, io.BytesIO(content) if content is not None else None)
    return buffer.getvalue()


def archive_of(form: str, *entries: tuple[str, bytes]) -> tuple[str, bytes]:
    """The upload's file name and bytes of plain entries packed as ``form`` ("zip" or "tar.gz")."""
    return ("bot.zip", zip_of(*entries)) if form == "zip" else ("bot.tar.gz", tar_gz_of(*entries))


def renamed(data: bytes, placeholder: str, name: bytes) -> bytes:
    """A zip with an entry's name replaced by bytes zipfile will not write (a NUL): in the local
    header and in the central directory alike (no checksum covers names)."""
    assert len(placeholder.encode()) == len(name) and data.count(placeholder.encode()) == 2
    return data.replace(placeholder.encode(), name)


#: A bomb's zeros: 1 GiB, deflated as one block of 16 MiB repeated (about 16 KiB each).
BOMB, BLOCK = GiB, 16 * 2**20


def deflated_zeros(prefix: bytes, zeros: int) -> tuple[bytes, int]:
    """``prefix`` then ``zeros`` zero bytes as a raw deflate stream, and its CRC-32, built as a bomb's
    maker builds it: never the whole in memory, and compressed once, not once per GiB (a full flush
    empties the compressor's window, so every 16 MiB of zeros after it compresses to the same bytes)."""
    assert zeros % BLOCK == 0
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = compressor.compress(prefix) + compressor.flush(zlib.Z_FULL_FLUSH)
    block = compressor.compress(bytes(BLOCK)) + compressor.flush(zlib.Z_FULL_FLUSH)
    crc = zlib.crc32(prefix)
    for _ in range(zeros // BLOCK):
        crc = zlib.crc32(bytes(BLOCK), crc)
    return head + block * (zeros // BLOCK) + compressor.flush(), crc


def raw_zip(entries: list[tuple[str, int, bytes, int, int]]) -> bytes:
    """A zip of (name, method, compressed data, CRC-32, size) entries, header by header (APPNOTE 4.3)."""
    body, directory = b"", b""
    for name, method, data, crc, size in entries:
        fields = struct.pack("<HHHHHIII", 20, 0, method, 0, 0x21, crc, len(data), size)
        directory += struct.pack("<IH", 0x02014B50, 0x0314) + fields + struct.pack(
            "<HHHHHII", len(name), 0, 0, 0, 0, (stat.S_IFREG | 0o644) << 16, len(body)) + name.encode()
        local = struct.pack("<I", 0x04034B50) + fields + struct.pack("<HH", len(name), 0) + name.encode()
        body += local + data
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(directory), len(body), 0)
    return body + directory + end


@pytest.fixture(scope="module")
def zip_bomb() -> bytes:
    """1 GiB of zeros deflated into about 1 MiB, beside a main.py: a valid zip (its checksum right;
    zipfile would take seconds to compress it)."""
    zeros, crc = deflated_zeros(b"", BOMB)
    return raw_zip([("main.py", zipfile.ZIP_STORED, MAIN, zlib.crc32(MAIN), len(MAIN)),
                    ("zeros.txt", zipfile.ZIP_DEFLATED, zeros, crc, BOMB)])


@pytest.fixture(scope="module")
def tar_gz_bomb() -> bytes:
    """A tar.gz of 1 GiB of zeros: a zeros.txt of 1 GiB less 16 MiB, then the archive's end (zero
    blocks), beside a main.py.  (tarfile and gzip would take seconds to compress it.)"""
    zeros = member("zeros.txt")
    zeros.size = BOMB - BLOCK
    main = member("main.py")
    main.size = len(MAIN)
    prefix = main.tobuf() + MAIN.ljust(512, b"\0") + zeros.tobuf()
    return gzip_of(prefix, BOMB)


def gzip_of(prefix: bytes, zeros: int) -> bytes:
    """A gzip file (RFC 1952) of ``prefix`` and then ``zeros`` zero bytes."""
    stream, crc = deflated_zeros(prefix, zeros)
    return b"\x1f\x8b\x08\0\0\0\0\0\2\3" + stream + struct.pack("<II", crc, (len(prefix) + zeros) % 2**32)


# ---------------------------------------------------------------- what a refusal must leave


@pytest.fixture
def dest(tmp_path: Path) -> Path:
    """Where uploads go, beside an empty sentinel folder (the target of the link attacks)."""
    (tmp_path / "sentinel").mkdir()
    return tmp_path / "dest"


def refused(filename: str, data: bytes, dest: Path, limits: UploadLimits = LIMITS) -> str:
    """The message both ``inspect`` and ``unpack`` refuse an upload with; nothing written anywhere
    (beside ``dest``, nothing changed; ``dest`` absent)."""
    before = files_in(dest.parent)
    with pytest.raises(UploadRefused) as inspected:
        inspect(filename, data, limits)
    with pytest.raises(UploadRefused) as unpacked:
        unpack(filename, data, dest, limits)
    message = str(unpacked.value)
    assert str(inspected.value) == message
    assert message.startswith("upload '"), message
    assert not any(map(is_unsafe, message)), message  # (names are shown escaped)
    assert files_in(dest.parent) == before and not dest.exists()
    return message


def unpacked(filename: str, data: bytes, dest: Path, limits: UploadLimits = LIMITS) -> tuple[Upload, Path]:
    """An upload unpacked (as inspect describes it), and the path of the bot inside ``dest``."""
    upload = unpack(filename, data, dest, limits)
    assert inspect(filename, data, limits) == upload
    return upload, dest / (filename if upload.kind == "source" else upload.name)


def files_in(folder: Path) -> dict[str, int]:
    """Every path under ``folder`` -> its mode (type and permissions)."""
    return {place.relative_to(folder).as_posix(): place.lstat().st_mode
            for place in sorted(folder.rglob("*"))}


# ---------------------------------------------------------------- paths out of the folder


@pytest.mark.parametrize("form", ["zip", "tar.gz"])
@pytest.mark.parametrize(("name", "why"), [
    ("../evil.py", "climbs out of its folder ('..')"),
    ("/tmp/arena-upload-test-evil.py", "is an absolute path"),
    ("a/../../evil.py", "climbs out of its folder ('..')"),
    ("a/b/../../../evil.py", "climbs out of its folder ('..')"),
    ("..\\evil.py", "holds a backslash (a Windows path?)"),
    ("C:/evil.py", "starts with a drive letter"),
])
def test_a_path_out_of_the_folder_is_refused(dest, form, name, why):
    message = refused(*archive_of(form, ("main.py", MAIN), (name, b"pwned")), dest)
    assert f"entry '{name}'".replace("\\", "\\\\") in message and why in message, message
    assert not Path("/tmp/arena-upload-test-evil.py").exists()


def test_a_symbolic_link_and_a_write_through_it_are_refused(dest):
    sentinel = dest.parent / "sentinel"
    # the classic: a link to a folder outside, then a file "inside" the link
    tar = tar_gz_of((member("link", tarfile.SYMTYPE, linkname=str(sentinel)), None), ("link/x", b"pwned"),
                    ("main.py", MAIN))
    message = refused("bot.tar.gz", tar, dest)
    assert f"entry 'link' is a symbolic link (to '{sentinel}')" in message
    assert "plain files and folders" in message
    # the same in a zip: the link's target is its content, its type the Unix mode in the external attributes
    archive = zip_of((zip_info("link", stat.S_IFLNK | 0o777), str(sentinel).encode()), ("link/x", b"pwned"),
                     ("main.py", MAIN))
    assert "entry 'link' is a symbolic link: " in refused("bot.zip", archive, dest)
    # a link that stays inside is no better: a bot's files are plain files
    inside = tar_gz_of(("main.py", MAIN), (member("helper.py", tarfile.SYMTYPE, linkname="main.py"), None))
    assert "entry 'helper.py' is a symbolic link (to 'main.py')" in refused("bot.tgz", inside, dest)


def test_a_hard_link_is_refused(dest):
    tar = tar_gz_of(("main.py", MAIN), (member("passwd", tarfile.LNKTYPE, linkname="/etc/passwd"), None))
    assert "entry 'passwd' is a hard link (to '/etc/passwd')" in refused("bot.tar.gz", tar, dest)
    inside = tar_gz_of(("main.py", MAIN), (member("again.py", tarfile.LNKTYPE, linkname="main.py"), None))
    assert "entry 'again.py' is a hard link (to 'main.py')" in refused("bot.tar.gz", inside, dest)


@pytest.mark.parametrize(("kind", "why"), [(tarfile.CHRTYPE, "a character device"),
                                           (tarfile.BLKTYPE, "a block device"),
                                           (tarfile.FIFOTYPE, "a FIFO (named pipe)")])
def test_a_device_or_a_fifo_in_a_tar_is_refused(dest, kind, why):
    special = member("special", kind, mode=0o666)
    special.devmajor, special.devminor = 1, 3  # (/dev/null's numbers)
    message = refused("bot.tar.gz", tar_gz_of(("main.py", MAIN), (special, None)), dest)
    assert f"entry 'special' is {why}: an archive holds plain files and folders only" in message


@pytest.mark.parametrize(("mode", "why"), [
    (stat.S_IFCHR, "a character device"), (stat.S_IFBLK, "a block device"),
    (stat.S_IFIFO, "a FIFO (named pipe)"), (stat.S_IFSOCK, "a socket"), (0o170000, "a file of type 0o170000"),
])
def test_a_special_file_in_a_zip_is_refused(dest, mode, why):
    archive = zip_of(("main.py", MAIN), (zip_info("special", mode | 0o666), b""))
    assert f"entry 'special' is {why}: " in refused("bot.zip", archive, dest)


# ---------------------------------------------------------------- names


@pytest.mark.parametrize("form", ["zip", "tar.gz"])
@pytest.mark.parametrize(("name", "shown", "why"), [
    # clear the screen, then red
    ("\x1b[2J\x1b[31mred.py", "\\x1b[2J\\x1b[31mred.py", "a control or invisible character (\\x1b)"),
    ("forged\nline.txt", "forged\\nline.txt", "has a line break"),
    ("x\rdone.txt", "x\\rdone.txt", "has a line break"),
    ("\u202etxt.exe", "\\u202etxt.exe", "invisible character (\\u202e)"),  # right-to-left: shows as "exe.txt"
    ("zero\u200bwidth.py", "zero\\u200bwidth.py", "invisible character (\\u200b)"),
    ("lib/\x07bell/x.py", "lib/\\x07bell/x.py", "the name '\\x07bell' has a control"),
])
def test_a_name_with_a_control_or_invisible_character_is_refused(dest, form, name, shown, why):
    message = refused(*archive_of(form, ("main.py", MAIN), (name, b"x")), dest)
    assert f"entry '{shown}'" in message and why in message, message


def test_a_nul_in_a_zip_name_is_refused_though_zipfile_would_cut_the_name_there(dest):
    archive = renamed(zip_of(("main.py", MAIN), ("main.py_x.txt", b"x")), "main.py_x.txt", b"main.py\0x.txt")
    message = refused("b.zip", archive, dest)
    assert "entry 'main.py\\x00x.txt': the name 'main.py\\x00x.txt' has a control" in message


def test_a_name_too_long_is_refused(dest):
    long = "x" * 256
    assert "longer than 255 bytes (the limit of a file name)" in refused(
        *archive_of("zip", ("main.py", MAIN), (long, b"x")), dest)
    accents = archive_of("tar.gz", ("main.py", MAIN), ("é" * 128, b"x"))  # 256 bytes of UTF-8
    assert "longer than 255 bytes" in refused(*accents, dest)
    deep = "/".join(["d" * 200] * 6)
    assert "is longer than 1024 bytes (the limit of a path)" in refused(
        *archive_of("tar.gz", ("main.py", MAIN), (deep, b"x")), dest)
    assert "its name is longer than 255 bytes" in refused("b" * 253 + ".py", MAIN, dest)


@pytest.mark.parametrize(("filename", "why"), [
    ("../bot.py", "its name has a path separator ('/')"),
    ("bots\\bot.py", "its name has a path separator ('\\\\')"),
    ("bot\x1b[31m.py", "its name has a control or invisible character (\\x1b)"),
    ("_helper.py", "may not start with '_' or '.'"),
    (".zip", "may not start with '_' or '.'"),
    ("..tgz", "may not start with '_' or '.'"),
    ("bot.exe", "'.exe' is no language's ending; a bot is a source (.py, .c, "),
    ("bot", "'' is no language's ending"),
    ("bot.tar", "'.tar' is no language's ending"),
    ("bot.tar.bz2", "or a folder bot packed as .zip, .tar.gz, .tgz"),
])
def test_an_upload_whose_own_name_is_wrong_is_refused(dest, filename, why):
    assert why in refused(filename, MAIN, dest)


# ---------------------------------------------------------------- duplicates


@pytest.mark.parametrize("form", ["zip", "tar.gz"])
@pytest.mark.parametrize(("first", "second", "why"), [
    ("main.py", "main.py", "names 'main.py' again: it is already a file"),
    ("lib/x.py", "lib/./x.py", "names 'lib/x.py' again"),
    ("lib/x.py", "lib//x.py", "names 'lib/x.py' again"),
    ("x.py", "./x.py", "names 'x.py' again"),
    ("lib", "lib/x.py", "entry 'lib/x.py' lies in 'lib', which is already a file"),
    ("lib/x.py", "lib", "is a file named 'lib', which is already a folder"),
    (unicodedata.normalize("NFC", "é.txt"), unicodedata.normalize("NFD", "é.txt"),
     "only in how its letters are encoded (Unicode normalisation)"),
])
def test_two_members_of_one_name_are_refused(dest, form, first, second, why):
    message = refused(*archive_of(form, ("main.py", MAIN), (first, b"1"), (second, b"2")), dest)
    assert why in message, message


# ---------------------------------------------------------------- sizes and counts


def test_an_upload_too_big_is_refused_before_it_is_read(dest):
    assert "takes 1048577 bytes: an upload may take 1 MiB" in refused("big.py", b"#" * (2**20 + 1), dest)
    small = UploadLimits(max_bytes=1000)
    archive = zip_of(("main.py", random.Random(1).randbytes(2000)))
    message = refused("bot.zip", archive, dest, small)
    assert f"takes {len(archive)} bytes: an upload may take 1000 bytes" in message
    assert "is empty" in refused("empty.py", b"", dest)


@pytest.mark.parametrize("form", ["zip", "tar.gz"])
def test_too_many_files_or_folders_are_refused(dest, form):
    files = [(f"f{n}.txt", b"") for n in range(100)]
    message = refused(*archive_of(form, ("main.py", MAIN), *files), dest)
    assert "holds more than 100 files (the limit)" in message
    folders = [(f"d{n}/x.txt", b"") for n in range(50)]
    few = UploadLimits(max_files=40)
    assert "holds more than 40 files" in refused(*archive_of(form, *folders[:41]), dest, few)
    assert "holds more than 3 folders (the limit)" in refused(*archive_of(form, ("d0/d1/d2/d3/x", b"")), dest,
                                                              UploadLimits(max_files=3))
    upload, _ = unpacked(*archive_of(form, ("main.py", MAIN), *files[:99]), dest)  # 100 files: the limit
    assert len(upload.files) == 100


def peak_memory_and_cpu(call) -> tuple[int, float, str]:
    """The peak of Python's allocations while ``call`` refuses an upload, its CPU time, the message."""
    tracemalloc.start()
    started = time.process_time()
    try:
        with pytest.raises(UploadRefused) as refusal:
            call()
        return tracemalloc.get_traced_memory()[1], time.process_time() - started, str(refusal.value)
    finally:
        tracemalloc.stop()


def test_a_zip_bomb_stops_at_the_limit_without_filling_memory_or_disk(dest, zip_bomb):
    assert len(zip_bomb) < LIMITS.max_bytes  # (deflate's best ratio is about 1:1000)
    assert zipfile.ZipFile(io.BytesIO(zip_bomb)).getinfo("zeros.txt").file_size == GiB  # (it says so, even)
    peak, cpu, message = peak_memory_and_cpu(lambda: unpack("bomb.zip", zip_bomb, dest, LIMITS))
    assert "unpacks to more than 16 MiB (the limit; stopped in entry 'zeros.txt')" in message
    assert peak < 4 * 2**20, peak  # chunks, never the whole
    assert cpu < 1.0, cpu  # 16 MiB inflated, not 1 GiB (about 1 s here)
    assert refused("bomb.zip", zip_bomb, dest) == message


def test_a_zip_that_declares_small_sizes_is_counted_by_what_it_unpacks_to(dest):
    """The central directory says each file is 1 byte: whatever is declared, the bytes are counted
    (zipfile stops at the declared size, and the checksum then refuses the lie)."""
    archive = zip_of(("main.py", MAIN), ("zeros.txt", bytes(2**20)))
    assert archive.count((2**20).to_bytes(4, "little")) == 2  # the local header and the central directory
    liar = archive.replace((2**20).to_bytes(4, "little"), (1).to_bytes(4, "little"))
    assert "is not a valid zip archive (Bad CRC-32 for file 'zeros.txt')" in refused("bot.zip", liar, dest)
    few = UploadLimits(max_unpacked_bytes=2**19)
    assert "unpacks to more than 512 KiB" in refused("bot.zip", archive, dest, few)


def test_a_tar_gz_bomb_stops_at_the_limit_without_filling_memory_or_disk(dest, tar_gz_bomb):
    assert len(tar_gz_bomb) < LIMITS.max_bytes
    peak, cpu, message = peak_memory_and_cpu(lambda: unpack("bomb.tar.gz", tar_gz_bomb, dest, LIMITS))
    assert "unpacks to more than 16 MiB (the limit; stopped in entry 'zeros.txt')" in message
    assert peak < 4 * 2**20, peak
    assert cpu < 1.0, cpu
    assert refused("bomb.tar.gz", tar_gz_bomb, dest) == message


def test_a_tar_header_that_tarfile_would_read_into_memory_is_bounded_too(dest):
    """A pax header of 64 MiB (tarfile reads a pax header whole): the tar stream itself is bounded."""
    header = member("pax", tarfile.XHDTYPE)
    header.size = 64 * 2**20
    archive = gzip_of(header.tobuf(), header.size)
    peak, _, message = peak_memory_and_cpu(lambda: inspect("bot.tar.gz", archive, LIMITS))
    assert "unpacks to a tar stream of more than 17200 KiB (the limit, with the files' headers)" in message
    assert peak < 24 * 2**20, peak  # (tarfile holds what it read of the header: the bound, not 64 MiB)
    refused("bot.tar.gz", archive, dest)


# ---------------------------------------------------------------- archives that are not bots


def test_an_archive_that_is_not_one_is_refused(dest):
    good = tar_gz_of(("main.py", MAIN))
    cases = [
        ("bot.zip", b"PK\x03\x04 not really", "is not a valid zip archive (File is not a zip file)"),
        ("bot.zip", zip_of(("main.py", MAIN * 100))[:-30], "is not a valid zip archive"),
        ("bot.tar.gz", b"\x1f\x8b but no gzip", "is not a valid tar.gz archive"),
        ("bot.tar.gz", good[: len(good) // 2], "is not a valid tar.gz archive"),
        ("bot.tgz", tarfile_bytes(), "is not a valid tar.gz archive (Not a gzipped file"),
        ("bot.tgz", zip_of(("main.py", MAIN)), "is not a valid tar.gz archive"),
    ]
    for filename, data, why in cases:
        assert why in refused(filename, data, dest), filename


def tarfile_bytes() -> bytes:
    """A plain (uncompressed) tar holding a main.py."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        info = member("main.py")
        info.size = len(MAIN)
        archive.addfile(info, io.BytesIO(MAIN))
    return buffer.getvalue()


def test_a_zip_compressed_otherwise_than_deflate_or_encrypted_is_refused(dest):
    bzip2 = zip_of(("main.py", MAIN), method=zipfile.ZIP_BZIP2)
    message = refused("bot.zip", bzip2, dest)
    assert "entry 'main.py' is compressed with method 12 (bzip2, LZMA, ...)" in message
    # zipfile writes no encryption: the flag is set by hand, in both headers
    plain = zip_of(("main.py", MAIN))
    local, central = b"PK\x03\x04\x14\x00", b"PK\x01\x02\x14\x03\x14\x00"  # (then the flags)
    encrypted = plain.replace(local + b"\0\0", local + b"\1\0").replace(central + b"\0\0", central + b"\1\0")
    assert encrypted.count(b"\x14\x00\x01\x00") == 2
    assert "entry 'main.py' is encrypted" in refused("bot.zip", encrypted, dest)


@pytest.mark.parametrize("form", ["zip", "tar.gz"])
def test_an_empty_archive_is_refused(dest, form):
    assert "holds no files" in refused(*archive_of(form), dest)
    folders = zip_of(("a/", b""), ("a/b/", b"")) if form == "zip" else tar_gz_of(
        (member("a", tarfile.DIRTYPE, 0o755), None), (member("a/b", tarfile.DIRTYPE, 0o755), None))
    assert "holds no files" in refused(f"bot.{form}", folders, dest)


@pytest.mark.parametrize("form", ["zip", "tar.gz"])
def test_an_archive_without_a_main_program_is_refused(dest, form):
    message = refused(*archive_of(form, ("helper.py", MAIN), ("data.txt", b"1 2 3")), dest)
    assert "holds no bot: a folder bot holds one of main.py, main.c, main.cpp, Main.java" in message
    assert message.endswith(", run, and it holds none"), message
    deeper = refused(*archive_of(form, ("bot/src/main.py", MAIN), ("bot/data.txt", b"")), dest)
    assert "its folder 'bot' holds none (it holds 'src/main.py': the main file goes at the top)" in deeper
    not_run = refused("bot.tar.gz", tar_gz_of((member("run", mode=0o644), b"#!/bin/sh\n")), dest)
    assert "its 'run' is not executable: set its executable bit (chmod +x run)" in not_run


def test_a_nested_archive_is_just_a_file(dest):
    inner = zip_of(("../../evil.py", b"pwned"), ("main.py", MAIN))
    upload, bot = unpacked("outer.zip", zip_of(("main.py", MAIN), ("inner.zip", inner)), dest)
    assert upload.files == ("inner.zip", "main.py")
    assert (bot / "inner.zip").read_bytes() == inner
    assert set(files_in(dest)) == {"outer", "outer/inner.zip", "outer/main.py"}


# ---------------------------------------------------------------- good uploads


def test_a_python_source_is_a_bot(dest, tmp_path):
    source = (REPO / "bots/greedy.py").read_bytes()
    upload, path = unpacked("greedy.py", source, dest)
    assert upload.kind == "source" and upload.name == "greedy" and upload.files == ("greedy.py",)
    assert upload.size == len(source) and len(upload.sha256) == 64
    assert files_in(dest) == {"greedy.py": stat.S_IFREG | 0o644} and path.read_bytes() == source
    bot = prepare_bot(path, tmp_path / "copies")
    assert isinstance(bot, Bot) and bot.language == "python" and bot.name == "greedy", bot


@needs_cc
def test_a_c_source_is_compiled_and_runs(dest, tmp_path):
    upload, path = unpacked("adder.c", ADD_C.encode(), dest)
    assert upload.kind == "source" and upload.name == "adder"
    bot = prepare_bot(path, tmp_path / "copies")
    assert isinstance(bot, Bot) and bot.language == "c", bot
    result = run_bot(bot.command, tmp_path / "play", {"game.in": "2 3\n"}, Limits(cpu=2))
    assert result.verdict == "ok" and result.output == "5\n", result


HELPER = b"""import random
from pathlib import Path

from referees.paint import PaintReferee, parse_board


def play(seed):
    referee = PaintReferee()
    state = parse_board(Path("game.in").read_text())
    Path("game.out").write_text(referee.move_text(referee.random_move(state, random.Random(seed))))
"""
#: A folder bot's main.py: a helper beside it, and a data file in its own folder.
FOLDER_MAIN = b"""from pathlib import Path

import helper

helper.play(int((Path(__file__).parent / "data" / "seed.txt").read_text()))
"""


def test_a_zipped_folder_bot_is_a_bot_and_plays_a_match(dest, tmp_path):
    archive = zip_of(("main.py", FOLDER_MAIN), ("helper.py", HELPER), ("data/", b""),
                     ("data/seed.txt", b"7\n"))
    upload, folder = unpacked("painter.zip", archive, dest)
    assert upload == Upload("archive", "painter", upload.sha256, len(archive),
                            ("data/seed.txt", "helper.py", "main.py"))
    assert files_in(folder) == {"data": stat.S_IFDIR | 0o755, "data/seed.txt": stat.S_IFREG | 0o644,
                                "helper.py": stat.S_IFREG | 0o644, "main.py": stat.S_IFREG | 0o644}
    bot = prepare_bot(folder, tmp_path / "copies")
    assert isinstance(bot, Bot) and bot.name == "painter" and bot.language == "python", bot
    # a real match: the unpacked bot against the shipped random bot, one board, both seat orders
    command = ["match", str(folder), str(REPO / "bots/random.py"), "--game", "paint",
               "--boards", str(REPO / "boards/group1/board1.in"), "--name", "up", "--wall", "30"]
    done = subprocess.run([sys.executable, "-m", "arena.cli", *command], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in (tmp_path / "results/up/games.jsonl").read_text().splitlines()]
    assert len(records) == 2 and all(sorted(record["seats"]) == ["painter", "random"] for record in records)
    verdicts = {move["verdict"] for record in records for move in record["moves"]
                if record["seats"][move["seat"]] == "painter"}
    assert verdicts == {"ok"}, records


def test_a_tar_gz_with_one_top_folder_has_that_folder_as_the_bot(dest, tmp_path):
    archive = tar_gz_of((member("mine", tarfile.DIRTYPE, 0o700), None), ("mine/main.py", MAIN),
                        ("mine/lib/util.py", b"X = 1\n"))
    upload, folder = unpacked("entry.tar.gz", archive, dest)
    assert upload.name == "entry" and upload.files == ("lib/util.py", "main.py")
    folder_mode, file_mode = stat.S_IFDIR | 0o755, stat.S_IFREG | 0o644
    assert files_in(dest) == {"entry": folder_mode, "entry/lib": folder_mode, "entry/lib/util.py": file_mode,
                              "entry/main.py": file_mode}
    assert isinstance(prepare_bot(folder, tmp_path / "copies"), Bot)


def test_a_tar_of_its_folder_with_dot_slash_names_and_a_macos_zip_are_bots(dest, tmp_path):
    # tar czf bot.tgz -C bot .   gives './' and './main.py'
    dotted = tar_gz_of((member(".", tarfile.DIRTYPE, 0o755), None), ("./main.py", MAIN))
    assert unpacked("dotted.tgz", dotted, dest)[0].files == ("main.py",)
    # Finder's "Compress" adds __MACOSX/ beside the folder: checked, then left out
    mac = zip_of(("bot/", b""), ("bot/main.py", MAIN), ("__MACOSX/bot/._main.py", b"\0\5\26\7"))
    upload, folder = unpacked("mac.zip", mac, dest.parent / "mac")
    assert upload.files == ("main.py",) and set(files_in(folder)) == {"main.py"}
    macos = zip_of(("main.py", MAIN), ("__MACOSX/\x1b.py", b""))
    assert "control or invisible" in refused("mac.zip", macos, dest.parent / "again")


def test_a_folder_bot_with_an_executable_run_keeps_its_bit_and_nothing_else(dest, tmp_path):
    script = b"#!/bin/sh\nread a b < game.in\necho $((a * b)) > game.out\n"
    run = member("run", mode=0o4777)  # set-uid and world-writable in the archive
    run.uid, run.gid, run.uname, run.mtime = 0, 0, "root", 0
    secret = member("notes/secret.txt", mode=0o600)
    archive = tar_gz_of((run, script), (member("notes", tarfile.DIRTYPE, 0o777), None), (secret, b"x"))
    upload, folder = unpacked("shell.tar.gz", archive, dest)
    assert upload.files == ("notes/secret.txt", "run")
    assert files_in(folder) == {"notes": stat.S_IFDIR | 0o755, "notes/secret.txt": stat.S_IFREG | 0o644,
                                "run": stat.S_IFREG | 0o755}
    assert (folder / "run").stat().st_mtime > time.time() - 3600  # not the archive's 1970
    zipped = zip_of((zip_info("run", stat.S_IFREG | 0o755), script))
    assert files_in(unpacked("zipped.zip", zipped, dest.parent / "z")[1]) == {"run": stat.S_IFREG | 0o755}
    bot = prepare_bot(folder, tmp_path / "copies")
    assert isinstance(bot, Bot) and bot.language is None and bot.command[0].endswith("/run"), bot
    result = run_bot(bot.command, tmp_path / "play", {"game.in": "6 7\n"}, Limits(cpu=2))
    assert result.verdict == "ok" and result.output == "42\n", result


def test_inspect_writes_nothing_and_unpack_wants_a_new_folder(dest, tmp_path, monkeypatch):
    monkeypatch.chdir(dest.parent)
    archive = zip_of(("main.py", MAIN))
    assert inspect("bot.zip", archive, LIMITS).files == ("main.py",)
    assert [place.name for place in dest.parent.iterdir()] == ["sentinel"]
    dest.mkdir()
    with pytest.raises(FileExistsError):
        unpack("bot.zip", archive, dest, LIMITS)
    assert not any(dest.iterdir())
    shutil.rmtree(dest)
