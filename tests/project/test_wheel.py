"""The release wheel carries no debug information and stays small.

With ``GYMSPACES_WHEEL=<path to a built .whl>`` (set by ``.ci/run`` to the
manylinux wheel it built and repaired) the wheel itself is checked: at most
``MAX_WHEEL_BYTES`` and no ``.debug_*`` section in any of its ELF extension
modules. Without it nothing is built; the flags ``setup.py`` gives a release
build (and a debug build) are checked instead, so the test never skips.

With debug information the Linux x86_64 wheel weighed 5.5 MB (12.5 MB of
shared objects); without, 1.4 MB (2.6 MB).
"""

from __future__ import annotations

import os
import re
import runpy
import shutil
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAX_WHEEL_BYTES = 2 * 1024 * 1024


def elf_section_names(data: bytes) -> list[str]:
    """The section names of an ELF file (32 or 64 bit, either byte order), read
    from its section header table and section name string table."""
    assert data[:4] == b"\x7fELF", "not an ELF file"
    wide = data[4] == 2  # EI_CLASS: 1 = 32 bit, 2 = 64 bit
    order = "<" if data[5] == 1 else ">"  # EI_DATA: 1 = little endian
    if wide:
        shoff, = struct.unpack_from(order + "Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from(order + "HHH", data, 0x3A)
        header = order + "IIQQQQIIQQ"  # name, type, flags, addr, offset, size, ...
    else:
        shoff, = struct.unpack_from(order + "I", data, 0x20)
        shentsize, shnum, shstrndx = struct.unpack_from(order + "HHH", data, 0x2E)
        header = order + "IIIIIIIIII"
    sections = [struct.unpack_from(header, data, shoff + i * shentsize) for i in range(shnum)]
    names_offset, names_size = sections[shstrndx][4], sections[shstrndx][5]
    names = data[names_offset : names_offset + names_size]
    return [names[section[0] : names.index(b"\0", section[0])].decode("ascii") for section in sections]


def check_wheel(path: Path) -> None:
    size = path.stat().st_size
    assert size <= MAX_WHEEL_BYTES, f"{path.name}: {size / 1e6:.2f} MB > {MAX_WHEEL_BYTES / 1e6:.2f} MB"
    with zipfile.ZipFile(path) as wheel:
        # The package, its metadata, auditwheel's libraries and the start-up hook; no benchmarks.
        foreign = [name for name in wheel.namelist() if not name.startswith("gymspaces") or "bench" in name]
        assert not foreign, f"{path.name} ships more than the package: {foreign}"
        extensions = [name for name in wheel.namelist() if name.endswith(".so")]
        assert extensions, f"{path.name} holds no extension module"
        for name in extensions:
            data = wheel.read(name)
            if data[:4] != b"\x7fELF":  # a macOS wheel's Mach-O: no debug sections are linked in
                continue
            debug = [section for section in elf_section_names(data) if section.startswith((".debug", ".zdebug"))]
            assert not debug, f"{name} carries debug sections: {debug}"


def setup_flags(platform: str, debug: bool) -> tuple[list[str], list[str]]:
    """``build_flags`` of setup.py, read without running ``setup()``."""
    namespace = runpy.run_path(str(ROOT / "setup.py"), run_name="gymspaces_setup")
    return namespace["build_flags"](platform, debug)


def check_setup_flags() -> None:
    compile_args, link_args = setup_flags("linux", debug=False)
    # -g0 must follow any -g: the last -g option wins.
    assert "-g0" in compile_args and "-g" not in compile_args, compile_args
    assert "-Wl,--strip-debug" in link_args or "-s" in link_args, link_args
    compile_args, link_args = setup_flags("darwin", debug=False)
    assert "-g0" in compile_args and not any(arg.startswith("-Wl,--strip") for arg in link_args), (compile_args, link_args)
    compile_args, link_args = setup_flags("win32", debug=False)
    assert "/Zi" not in compile_args and not any(arg.startswith("-") for arg in compile_args + link_args)
    # GYMSPACES_DEBUG_BUILD=1 keeps its symbols (and its checks, see setup.py's DIRECTIVES).
    compile_args, link_args = setup_flags("linux", debug=True)
    assert "-g" in compile_args and "-g0" not in compile_args and not link_args, (compile_args, link_args)
    assert "/Zi" in setup_flags("win32", debug=True)[0]


def test_release_build_has_no_debug_information() -> None:
    wheel = os.environ.get("GYMSPACES_WHEEL")
    if wheel:
        check_wheel(Path(wheel))
    else:  # no wheel at hand: check what a release build is given
        check_setup_flags()


@pytest.mark.parametrize("debug", ["0", "1"])
def test_debug_build_keeps_its_checks_and_symbols(monkeypatch: pytest.MonkeyPatch, debug: str) -> None:
    monkeypatch.setenv("GYMSPACES_DEBUG_BUILD", debug)
    namespace = runpy.run_path(str(ROOT / "setup.py"), run_name="gymspaces_setup")
    checks = {name: namespace["DIRECTIVES"][name] for name in ("boundscheck", "wraparound", "initializedcheck")}
    assert checks == dict.fromkeys(checks, debug == "1")
    assert (("GYMSPACES_DEBUG_BUILD", "1") in namespace["MACROS"]) == (debug == "1")
    flags = (namespace["COMPILE_ARGS"], namespace["LINK_ARGS"])
    assert flags == namespace["build_flags"](sys.platform, debug == "1")


@pytest.mark.parametrize(("inplace", "built"), [(False, ["gymspaces._rng"]), (True, ["gymspaces._rng", "benchmarks._floor"])])
def test_the_benchmarks_kernel_is_built_only_into_a_checkout(inplace: bool, built: list[str]) -> None:
    from setuptools import Distribution

    namespace = runpy.run_path(str(ROOT / "setup.py"), run_name="gymspaces_setup")
    kernel = namespace["kernel"]
    extensions = [kernel("_rng"), kernel("_floor", random=False, package="benchmarks")]
    command = namespace["build_ext_on_every_core"](Distribution({"ext_modules": extensions}))
    command.inplace = inplace
    command.finalize_options()
    assert [extension.name for extension in command.extensions] == built


def test_elf_section_names_reads_a_kernel() -> None:
    import gymspaces._rng

    data = Path(gymspaces._rng.__file__).read_bytes()
    if data[:4] != b"\x7fELF":
        pytest.skip("the kernels are not ELF files on this platform")
    names = elf_section_names(data)
    assert names[0] == "" and {".text", ".dynsym", ".shstrtab"} <= set(names), names
    if shutil.which("readelf"):
        listing = subprocess.run(["readelf", "-SW", gymspaces._rng.__file__], capture_output=True, text=True, check=True)
        listed = re.findall(r"^\s*\[\s*\d+\]\s+(\S+)", listing.stdout, flags=re.M)
        assert names[1:] == listed[1:], (names, listed)  # readelf prints the unnamed section 0 as NULL
