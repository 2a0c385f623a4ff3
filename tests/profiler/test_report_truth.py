"""What ``python -m gymspaces.gymnasium --report`` says is true of the run.

Each test runs a real program (real Gymnasium spaces, a script in tmp_path)
under the command in a real interpreter and reads the report it prints:
calls that ran Gymnasium's own code are not counted as compiled, patch
mode's own start-up is in the patched run and not in the plain estimate, a
program that never ran gets no report, and every line is whole words within
100 columns.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

WIDTH = 100
UNITS = {"s": 1.0, "ms": 1e-3}

# A subclass that overrides sample (calling Gymnasium's): every one of its
# calls runs Gymnasium's own code, sample and contains alike.
CUSTOM = """
import gymnasium


class {name}(gymnasium.spaces.Discrete):
    def sample(self, mask=None, probability=None):
        return super().sample(mask, probability)


space = {name}(5, seed=0)
for _ in range(1000):
    space.sample()
for _ in range(1000):
    space.contains(1)
exact = gymnasium.spaces.Discrete(5, seed=1)
for _ in range({exact}):
    exact.sample()
print("done")
"""


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key not in ("GYMSPACES_PATCH", "GYMSPACES_REPORT")}
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=environment, capture_output=True, text=True, timeout=300, check=False
    )


def report(tmp_path: Path, source: str, *options: str) -> list[str]:
    """The report's lines for ``source`` run as a script under ``python -m gymspaces.gymnasium``."""
    script = tmp_path / "program.py"
    script.write_text(source)
    result = run(["-m", "gymspaces.gymnasium", *(options or ("--report",)), str(script)], tmp_path)
    assert result.returncode == 0, result.stderr
    return result.stderr.splitlines()


def joined(lines: list[str], start: str) -> str:
    """The line starting with ``start`` and its continuation lines (indented deeper), as one."""
    first = next(index for index, line in enumerate(lines) if line.startswith(start))
    indent = len(start) - len(start.lstrip(" "))
    parts = [lines[first].strip()]
    for line in lines[first + 1 :]:
        if len(line) - len(line.lstrip(" ")) <= indent:
            break
        parts.append(line.strip())
    return " ".join(parts)


def table(lines: list[str]) -> dict[str, list[int]]:
    """The detailed report's operation rows: ``{operation: [calls, of them compiled]}``."""
    rows = [line.split() for line in lines]
    return {row[0]: [int(row[1]), int(row[2])] for row in rows if len(row) == 4 and row[1].isdigit()}


def seconds(text: str) -> float:
    value, unit = text.split()
    return float(value) * UNITS[unit]


def test_calls_that_ran_gymnasiums_code_are_not_counted_compiled(tmp_path: Path) -> None:
    lines = report(tmp_path, CUSTOM.format(name="MyDiscrete", exact=300))
    text = "\n".join(lines)
    # Only the exact Discrete's 300 samples ran compiled.
    assert "    compiled: Discrete.sample x300" in lines, text
    assert "Discrete.contains x" not in joined(lines, "    compiled: ")
    assert "  ran Gymnasium's own code: 2000 calls (Discrete.sample x1000, Discrete.contains x1000)" in lines, text
    # The reason, whole.
    assert "why, e.g. Discrete.sample on __main__.MyDiscrete: subclass-overrides: MyDiscrete redefines sample" in joined(lines, "    why")


def test_nothing_compiled_says_so_and_details_count_compiled_calls(tmp_path: Path) -> None:
    lines = report(tmp_path, CUSTOM.format(name="MyDiscrete", exact=0), "--report-details")
    assert table(lines) == {"Discrete.sample": [1000, 0], "Discrete.contains": [1000, 0]}, "\n".join(lines)
    short = report(tmp_path, CUSTOM.format(name="MyDiscrete", exact=0))
    assert "    compiled: nothing (no patched space operation ran compiled)" in short


def test_helper_calls_that_fall_back_are_counted_as_gymnasiums(tmp_path: Path) -> None:
    """A helper whose rule hands the call to Gymnasium's (a tree with a custom
    node) counts it as Gymnasium's code, with the reason."""
    source = (
        "import gymnasium\n"
        "class Own(gymnasium.spaces.Box):\n"
        "    def sample(self, mask=None, probability=None):\n"
        "        return super().sample(mask, probability)\n"
        "tree = gymnasium.spaces.Dict({'own': Own(0, 1, (2,), seed=0)})\n"
        "box = gymnasium.spaces.Box(0, 1, (2,), seed=1)\n"
        "for _ in range(7):\n"
        "    gymnasium.spaces.utils.flatten(tree, tree.sample())\n"
        "for _ in range(5):\n"
        "    gymnasium.spaces.utils.flatten(box, box.sample())\n"
    )
    lines = report(tmp_path, source, "--report-details")
    # 7 on the Dict and 7 on its Own child ran Gymnasium's rule; the Box's 5 ran compiled.
    assert table(lines)["flatten"] == [19, 5], "\n".join(lines)
    assert "flatten on gymnasium.spaces.dict.Dict x7: subclass-overrides: sub-space Own: Own redefines sample" in lines
    assert "flatten on __main__.Own x7: subclass-overrides: Own redefines sample" in lines


def test_start_up_is_in_the_run_and_not_in_the_plain_estimate(tmp_path: Path) -> None:
    """One sample: patch mode's start-up is all it adds, so the whole process is slower patched."""
    source = (
        "import time\n"
        "started = time.perf_counter()\n"
        "import gymnasium\n"
        "gymnasium.spaces.Discrete(3, seed=0).sample()\n"
        "print(time.perf_counter() - started)\n"
    )
    script = tmp_path / "one.py"
    script.write_text(source)
    result = run(["-m", "gymspaces.gymnasium", "--report", str(script)], tmp_path)
    assert result.returncode == 0, result.stderr
    program_seconds = float(result.stdout)
    lines = result.stderr.splitlines()
    gain = re.fullmatch(
        r"  this process: ~([\d.]+)x slower than plain \(([\d.]+ m?s) run since the process started, "
        r"plain about ([\d.]+ m?s)\)",
        lines[1],
    )
    assert gain, result.stderr
    run_time, plain = seconds(gain[2]), seconds(gain[3])
    startup = re.fullmatch(r"    of the run, ([\d.]+ m?s) was patch mode's own start-up \(importing gymspaces, patching\)", lines[2])
    assert startup, result.stderr
    start_up = seconds(startup[1])
    # The run holds the start-up and the program; the plain estimate is the run without the start-up
    # (one sample removes a few microseconds at most; figures are rounded to 3 digits).
    assert run_time >= start_up + program_seconds * 0.99 > 0
    assert plain < run_time and plain == pytest.approx(run_time - start_up, rel=0.02, abs=2e-4)
    assert float(gain[1]) == pytest.approx(run_time / plain, rel=0.02)
    # What the report itself cost at exit, on the first screen.
    assert re.fullmatch(
        r"  this report: [\d.]+ m?s more at exit, outside the run \([\d.]+ m?s of it replaying calls for the estimate\)",
        lines[-1],
    ), result.stderr


def test_details_say_how_the_run_and_its_start_up_were_measured(tmp_path: Path) -> None:
    lines = report(tmp_path, "import gymnasium\ngymnasium.spaces.Discrete(3, seed=0).sample()\n", "--report-details")
    text = joined(lines, "  run time: since the process started; ")
    match = re.search(
        r"([\d.]+ m?s) of it patch mode's start-up: importing gymspaces' layer \(([\d.]+ m?s), timed in the "
        r"replay's interpreter\) and patching \(([\d.]+ m?s)\)",
        text,
    )
    assert match, text
    total, importing, patching = (seconds(match[index]) for index in (1, 2, 3))
    assert importing > 0 and patching > 0 and total == pytest.approx(importing + patching, rel=0.02, abs=2e-4)
    assert joined(lines, "the report itself: ").startswith("the report itself: ")


def test_no_measurable_gain_is_said_plainly(tmp_path: Path) -> None:
    """A program that patches, reporting, and runs nothing: no gain to claim."""
    script = tmp_path / "idle.py"
    script.write_text("import gymspaces.gymnasium as patch_mode\npatch_mode.patch(report=True)\nprint(patch_mode.report())\n")
    result = run([str(script)], tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1].startswith("  this process: no measurable gain ("), result.stdout
    assert "1.00x" not in result.stdout
    assert lines[2].endswith(": nothing measurable left to gain there"), result.stdout


@pytest.mark.parametrize(
    "args",
    [["nosuch.py"], ["-m", "no_such_module"], ["folder"], ["broken.py"]],
    ids=["missing script", "missing module", "folder without __main__", "syntax error"],
)
@pytest.mark.parametrize("option", ["--report", "--report-details"])
def test_no_report_for_a_program_that_never_ran(tmp_path: Path, args: list[str], option: str) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "broken.py").write_text("def (:\n")
    plain = run(args, tmp_path)
    patched = run(["-m", "gymspaces.gymnasium", option, *args], tmp_path)
    assert patched.returncode == plain.returncode != 0
    # Python's own error, alone (the name the interpreter was started as aside).
    error = patched.stderr.replace(sys.executable, "python")  # (its path may name gymspaces: a CI venv's)
    assert error == plain.stderr.replace(sys.executable, "python")
    assert "gymspaces" not in error


def test_a_program_that_ran_and_exited_gets_its_report(tmp_path: Path) -> None:
    script = tmp_path / "leaves.py"
    script.write_text("import sys\nimport gymnasium\ngymnasium.spaces.Discrete(2).sample()\nsys.exit(3)\n")
    result = run(["-m", "gymspaces.gymnasium", "--report", str(script)], tmp_path)
    assert result.returncode == 3
    assert "    compiled: Discrete.sample x1" in result.stderr.splitlines(), result.stderr


@pytest.mark.parametrize("option", ["--report", "--report-details"])
def test_reports_read_as_words_within_100_columns(tmp_path: Path, option: str) -> None:
    """A long class name in a deep folder: lines are wrapped between words, never cut."""
    name = "ACustomDiscreteSpaceWithAVeryLongNameIndeedSoThatItsReasonCannotFitOnOneLine"
    deep = tmp_path / ("a_folder_with_a_long_name_" * 2) / "and_another_one_below_it"
    deep.mkdir(parents=True)
    lines = report(deep, CUSTOM.format(name=name, exact=10), option)
    text = "\n".join(lines)
    assert max(map(len, lines)) <= WIDTH, text
    assert "..." not in text  # nothing cut short
    assert "most any" not in text and "python -m gymspaces.gymnasium --report" not in lines[0]
    words = " ".join(line.strip() for line in lines)
    assert f"{name} redefines sample" in words
    # A path longer than a line is the one word broken, where it must be.
    assert str(deep / "program.py") in "".join(line.strip() for line in lines)
