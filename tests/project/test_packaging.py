"""Packaging metadata that can be checked from the source tree.

The artifacts themselves (the sdist, the wheel built from it, the manylinux
repair, ``twine check``) are built and tested by ``.ci/run``; this module
checks the rules they are built from.
"""

from __future__ import annotations

import ast
import importlib.metadata
import os
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

import gymspaces

ROOT = Path(__file__).resolve().parents[2]

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_version_is_written_in_one_place() -> None:
    source = (ROOT / "gymspaces" / "_version.py").read_text(encoding="utf-8")
    written = re.findall(r'__version__ = "([^"]+)"', source)
    assert written == [gymspaces.__version__]
    assert "version" not in PYPROJECT["project"]
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "gymspaces._version.__version__"}
    assert importlib.metadata.version("gymspaces") == gymspaces.__version__
    # No other file spells the version out (the changelog names releases, the
    # README and performance page quote a benchmark run's header).
    for path in [*ROOT.glob("gymspaces/**/*.py"), ROOT / "setup.py", ROOT / "docs" / "conf.py"]:
        if path.name != "_version.py":
            assert f'"{gymspaces.__version__}"' not in path.read_text(encoding="utf-8"), path


def test_license_is_mit_and_shipped() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "Copyright (c)" in text
    assert PYPROJECT["project"]["license"] == "MIT"
    assert PYPROJECT["project"]["license-files"] == ["LICENSE"]
    metadata = importlib.metadata.metadata("gymspaces")
    assert metadata["License-Expression"] == "MIT"


def test_changelog_starts_at_the_current_release() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## (\d\S*) - \d{4}-\d\d-\d\d$", text, flags=re.M)  # each release dated
    assert releases and releases[0] == gymspaces.__version__
    assert releases[-1] == "0.1.0"
    # Unreleased changes first; no version is linked to a tag the repository does not have.
    assert re.findall(r"^## .*", text, flags=re.M)[0] == "## Unreleased"
    assert not re.search(r"^\[[^\]]+\]: ", text, flags=re.M)


def test_index_metadata_is_complete() -> None:
    project = PYPROJECT["project"]
    assert {"Homepage", "Documentation", "Source", "Issues", "Changelog"} <= set(project["urls"])
    classifiers = set(project["classifiers"])
    for version in ("3.10", "3.11", "3.12", "3.13", "3.14", "3.15"):
        assert f"Programming Language :: Python :: {version}" in classifiers
    assert "Typing :: Typed" in classifiers
    assert project["requires-python"] == ">=3.10"


def manifest_files() -> set[str]:
    """The files MANIFEST.in selects from the tree, as setuptools applies it
    (its patterns glob relative to the working directory: call from ROOT)."""
    from setuptools.command.egg_info import FileList

    files = FileList()
    files.allfiles = [
        str(path.relative_to(ROOT)).replace("\\", "/")
        for path in ROOT.rglob("*")
        if path.is_file() and ".git" not in path.parts
    ]
    for line in (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            files.process_template_line(line)
    return set(files.files)


def test_the_sdist_rules_take_every_source_and_no_generated_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    selected = manifest_files()
    wanted = [
        "LICENSE",
        "README.md",
        "CHANGELOG.md",
        "pyproject.toml",
        "setup.py",
        "gymspaces-patch.pth",
        "stubtest_allowlist.txt",
        "benchmarks/targets.toml",
        "docs/conf.py",
        "docs/_static/gymspaces.css",
        "tests/conftest.py",
        ".github/workflows/wheels.yml",
    ]
    for pattern in ("gymspaces/**/*.py", "gymspaces/**/*.pyx", "gymspaces/*.pxd", "gymspaces/**/*.pyi", "tests/**/*.py",
                    "docs/*.md", "docs/*.png", "benchmarks/*.py"):
        found = [str(path.relative_to(ROOT)) for path in ROOT.glob(pattern) if "_build" not in path.parts]
        assert found, pattern
        wanted += found
    missing = sorted(set(wanted) - selected)
    assert not missing, f"not in the sdist: {missing}"
    generated = sorted(name for name in selected if name.endswith((".c", ".so", ".pyd", ".pyc")))
    assert not generated, f"generated files in the sdist: {generated}"


def test_the_wheel_takes_every_stub() -> None:
    # A package's stubs (the kernels' types) reach users only through its
    # package-data entry.
    config = PYPROJECT["tool"]["setuptools"]
    for package in config["packages"]:
        folder = ROOT.joinpath(*package.split("."))
        if any(folder.glob("*.pyi")):
            assert "*.pyi" in config["package-data"].get(package, []), package


@pytest.mark.parametrize(
    "kernel", sorted(str(path.relative_to(ROOT / "gymspaces").with_suffix("")) for path in (ROOT / "gymspaces").rglob("_*.pyx"))
)
def test_every_kernel_has_its_stub(kernel: str) -> None:
    assert (ROOT / "gymspaces" / f"{kernel}.pyi").exists()


# The hosted runners the wheels workflow may use, with their native arch in
# cibuildwheel's spelling. A runner not listed (a retired image such as
# macos-13, or a new label) fails the test until its arch is written here.
RUNNER_ARCHS = {
    "ubuntu-latest": ("linux", "x86_64"),
    "ubuntu-24.04-arm": ("linux", "aarch64"),
    "macos-15-intel": ("macos", "x86_64"),
    "macos-14": ("macos", "arm64"),
    "windows-latest": ("windows", "AMD64"),
}


def workflow_job(name: str) -> str:
    """The text of one job of .github/workflows/wheels.yml (jobs sit at two spaces)."""
    text = (ROOT / ".github" / "workflows" / "wheels.yml").read_text(encoding="utf-8")
    match = re.search(rf"^  {name}:\n(.*?)(?=^  \S|\Z)", text, flags=re.M | re.S)
    assert match, f"no job {name!r} in wheels.yml"
    return match.group(1)


def test_each_wheel_runner_builds_its_own_arch_of_the_declared_matrix() -> None:
    """Every matrix entry pins one arch, native to its runner, and together they
    are the platforms/archs of [tool.cibuildwheel]: no cross builds, no wheel
    built twice, none missing."""
    job = workflow_job("wheels")
    # Read without a YAML library: entries are flow mappings under ``include:``.
    entries = [
        dict(item.split(":", 1) for item in (part.strip() for part in entry.split(",")))
        for entry in re.findall(r"^\s*- \{(.*)\}\s*$", job, flags=re.M)
    ]
    entries = [{key.strip(): value.strip() for key, value in entry.items()} for entry in entries]
    assert entries and all(set(entry) == {"os", "arch"} for entry in entries), entries
    assert re.search(r"^\s*include:\s*$", job, flags=re.M) and not re.search(r"^\s*os:", job, flags=re.M)
    for entry in entries:
        assert entry["os"] in RUNNER_ARCHS, f"unknown or retired runner {entry['os']!r}"
        assert RUNNER_ARCHS[entry["os"]][1] == entry["arch"], entry
    assert re.search(r"^\s*CIBW_ARCHS: \$\{\{ matrix\.arch \}\}\s*$", job, flags=re.M)
    assert "runs-on: ${{ matrix.os }}" in job
    built = sorted(RUNNER_ARCHS[entry["os"]] for entry in entries)
    config = PYPROJECT["tool"]["cibuildwheel"]
    declared = sorted((platform, arch) for platform in ("linux", "macos", "windows")
                      for arch in config[platform]["archs"])
    assert built == declared


def test_the_install_makes_nothing_but_gymspaces_importable(tmp_path: Path) -> None:
    """An install, editable ones included, adds one top-level name: ``gymspaces``.

    setuptools makes the package of every extension of the distribution
    importable; the benchmarks' kernel, built into a checkout only, is none of
    them (an editable install made the checkout's ``benchmarks`` importable in
    every folder). Run from an empty folder: no checkout is on the path.
    """
    code = (
        "import importlib.metadata, importlib.util\n"
        "print(importlib.metadata.distribution('gymspaces').read_text('top_level.txt').split())\n"
        "specs = [importlib.util.find_spec(name) for name in ('benchmarks', 'tests', 'support', 'docs')]\n"
        "print([str(place) for spec in specs if spec for place in (spec.submodule_search_locations or [spec.origin])])"
    )
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "GYMSPACES_PATCH")}
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    top_level, importable = result.stdout.splitlines()
    assert top_level == "['gymspaces']", "reinstall an editable install made by an older setup.py (pip install -e .)"
    # (Another distribution may ship a folder of the same name: TorchRL installs a
    # ``benchmarks`` folder in site-packages. None may be this checkout's.)
    checkout = str(Path(__file__).resolve().parents[2])
    assert [place for place in ast.literal_eval(importable) if place.startswith(checkout)] == []


def test_the_benchmarks_kernel_is_no_extension_of_the_distribution() -> None:
    """Built into a checkout, the benchmarks' kernel is lent to ``build_ext`` only,
    and the distribution (what installs are made from) never holds it."""
    from setuptools import Distribution

    namespace = runpy.run_path(str(ROOT / "setup.py"), run_name="gymspaces_setup")
    kernel, command_class = namespace["kernel"], namespace["build_ext_on_every_core"]
    floor, rng = kernel("_floor", random=False, package="benchmarks"), kernel("_rng")
    assert namespace["checkout_only"](floor) and not namespace["checkout_only"](rng)
    for into_checkout, built in ((True, ["gymspaces._rng", "benchmarks._floor"]), (False, ["gymspaces._rng"])):
        distribution = Distribution({"ext_modules": [rng]})
        command = command_class(distribution)
        command.checkout_extensions = (floor,)
        command.inplace = into_checkout
        command.finalize_options()
        assert [extension.name for extension in command.extensions] == built
        assert [extension.name for extension in distribution.ext_modules] == ["gymspaces._rng"]
