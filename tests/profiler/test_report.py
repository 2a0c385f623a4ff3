"""``--report`` / ``report()``: the share of the run in space operations, the
estimate of what patch mode removed, and the counts of the processes the
program started (AsyncVectorEnv workers under fork, spawn and forkserver).

The worker tests run real interpreters and real Gymnasium envs in real
worker processes: the counts the parent prints are the workers' own.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import gymnasium
import numpy as np
import pytest

from gymspaces.gymnasium import patch, report, unpatch
from gymspaces.gymnasium.profiler import recording

pytestmark = pytest.mark.usefixtures("unpatched")  # conftest: each test starts unpatched

STEPS = 40
WORKERS = 2

PROGRAM = textwrap.dedent(
    f"""
    import sys

    import gymnasium


    def main():
        envs = gymnasium.vector.AsyncVectorEnv(
            [lambda: gymnasium.make("CartPole-v1")] * {WORKERS}, context=sys.argv[1], shared_memory=True
        )
        observations, _ = envs.reset(seed=3)
        envs.action_space.seed(4)
        for _ in range({STEPS}):
            observations, *_ = envs.step(envs.action_space.sample())
        envs.close()
        print("last", observations.tobytes().hex())


    if __name__ == "__main__":
        main()
    """
)


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key not in ("GYMSPACES_PATCH", "GYMSPACES_REPORT")}
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=environment, capture_output=True, text=True, timeout=300, check=False
    )


def operations(text: str) -> dict[str, list[str]]:
    """The rows of the report's operation table, by operation."""
    lines = text.splitlines()
    start = lines.index("gymspaces: patched space operations") + 2
    rows = {}
    for line in lines[start:]:
        if not line.strip():
            break
        cells = line.split()
        rows[cells[0]] = cells[1:]
    return rows


def paragraph(text: str, start: str) -> str:
    """The report's line that starts with ``start``, its wrapped continuation lines joined to it."""
    lines = text.splitlines()
    first = next(index for index, line in enumerate(lines) if line.startswith(start))
    indent = len(start) - len(start.lstrip(" "))
    rest = []
    for line in lines[first + 1 :]:
        if len(line) - len(line.lstrip(" ")) <= indent:
            break
        rest.append(line.strip())
    return " ".join([lines[first].strip(), *rest])


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "train.py"
    path.write_text(PROGRAM)
    return path


@pytest.mark.parametrize("context", ["spawn", "forkserver", "fork"])
def test_report_counts_what_the_workers_ran(program: Path, context: str) -> None:
    """Each worker writes its observation into shared memory at reset and at
    every step: the parent's report shows exactly those calls, from the workers."""
    result = run(["-m", "gymspaces.gymnasium", "--report-details", str(program), context], program.parent)
    assert result.returncode == 0, result.stderr
    rows = operations(result.stderr)
    assert "in children" in result.stderr.splitlines()[1]
    main_calls, main_compiled, _, child_calls, child_compiled, _ = rows["write_to_shared_memory"]
    assert int(main_calls) == int(main_compiled) == 0
    assert int(child_calls) == int(child_compiled) == WORKERS * (STEPS + 1), result.stderr
    # The workers check the actions they step with (CartPole asserts them valid; autoreset steps do not).
    assert WORKERS * STEPS // 2 < int(rows["Discrete.contains"][3]) <= WORKERS * STEPS
    assert int(rows["MultiDiscrete.sample"][0]) == STEPS  # the parent's batched action sample
    assert f"{WORKERS} child processes: " in result.stderr
    assert "did not report" not in result.stderr
    assert "GYMSPACES_REPORT" not in os.environ  # the test process's environment is not the program's


@pytest.mark.parametrize("context", ["spawn", "fork"])
def test_reporting_changes_no_result(program: Path, context: str) -> None:
    plain = run([str(program), context], program.parent)
    patched = run(["-m", "gymspaces.gymnasium", str(program), context], program.parent)
    reported = run(["-m", "gymspaces.gymnasium", "--report-details", str(program), context], program.parent)
    for result in (plain, patched, reported):
        assert result.returncode == 0, result.stderr
    assert plain.stdout == patched.stdout == reported.stdout
    assert "gymspaces: patched space operations" in reported.stderr and not patched.stderr.strip()


def _taxi(steps: int) -> tuple[object, list[float]]:
    env = gymnasium.make("Taxi-v4")
    _, info = env.reset(seed=0)
    env.action_space.seed(0)
    rewards = []
    for _ in range(steps):
        _, reward, terminated, truncated, info = env.step(env.action_space.sample(info["action_mask"]))
        rewards.append(float(reward))
        if terminated or truncated:
            _, info = env.reset()
    return env, rewards


_UNITS = {"s": 1.0, "ms": 1e-3}


def test_report_gives_share_gain_if_free_and_estimate_without_touching_the_program() -> None:
    patch(report=True)
    try:
        env, rewards = _taxi(400)
        state = env.action_space.np_random.bit_generator.state
        text = report(details=True)
        assert env.action_space.np_random.bit_generator.state == state  # the estimate drew nothing here
        more = [env.step(env.action_space.sample())[1] for _ in range(5)]
    finally:
        unpatch()
    plain_env, plain_rewards = _taxi(400)
    assert rewards == plain_rewards
    assert more == [plain_env.step(plain_env.action_space.sample())[1] for _ in range(5)]

    line = next(line for line in text.splitlines() if line.startswith("this process: "))
    match = re.match(
        r"this process: ([\d.]+) (m?s) in space operations of ([\d.]+) (m?s) run time: ([\d.]+)%, ([\d.]+)x if free", line
    )
    assert match, line
    spent, run_time = (float(match[value]) * _UNITS[match[unit]] for value, unit in ((1, 2), (3, 4)))
    share, if_free = float(match[5]), float(match[6])
    # A short run (400 steps: well under a millisecond in space operations) still reads as more than nothing.
    assert 0 < spent <= run_time and 0 < share < 100
    assert if_free == pytest.approx(1 / (1 - share / 100), abs=0.01)
    assert re.search(r"patch mode (removed|added) ~[\d.]+ m?s: plain, about [\d.]+ m?s", text), text
    estimate = paragraph(text, "estimate: ")
    assert "replayed on copies" in estimate and "Discrete.sample" in estimate


def test_kept_calls_are_only_those_that_pickle_without_program_code() -> None:
    class Own(gymnasium.spaces.Discrete):
        pass

    record = recording.Record()
    space = gymnasium.spaces.Discrete(4, seed=0)
    before = space.np_random.bit_generator.state
    recording._keep_call(record, "Discrete.sample", (space, np.ones(4, np.int8), None), {})
    recording._keep_call(record, "Discrete.sample", (Own(4), None, None), {})  # a class of the program's
    recording._keep_call(record, "Discrete.contains", (space, object()), {})  # an argument of the program's
    assert space.np_random.bit_generator.state == before
    assert [len(items) for items in record.kept_calls.values()] == [1]


def test_in_program_report_collects_forked_workers() -> None:
    patch(report=True)
    try:
        envs = gymnasium.vector.AsyncVectorEnv([lambda: gymnasium.make("CartPole-v1")] * 2, context="fork")
        envs.reset(seed=0)
        for _ in range(10):
            envs.step(envs.action_space.sample())
        envs.close()
        text = report(estimate=False, details=True)
    finally:
        unpatch()
    assert int(operations(text)["write_to_shared_memory"][3]) == 2 * 11, text
    assert "estimate:" not in text


def test_short_report_reads_gain_first_in_twelve_lines_of_at_most_100_columns(tmp_path: Path) -> None:
    """The default report: the gain first, then what is left, then what ran how."""
    script = tmp_path / "taxi.py"
    script.write_text(
        "import gymnasium\n"
        "env = gymnasium.make('Taxi-v4')\n"
        "_, info = env.reset(seed=0)\n"
        "env.action_space.seed(0)\n"
        "for _ in range(400):\n"
        "    _, _, terminated, truncated, info = env.step(env.action_space.sample(info['action_mask']))\n"
        "    if terminated or truncated:\n"
        "        _, info = env.reset()\n"
        "print('done')\n"
    )
    result = run(["-m", "gymspaces.gymnasium", "--report", str(script)], tmp_path)
    assert result.returncode == 0 and result.stdout == "done\n", result.stderr
    lines = result.stderr.splitlines()
    assert 5 <= len(lines) <= 12 and max(map(len, lines)) <= 100, result.stderr
    assert lines[0].startswith("gymspaces patch mode report") and "--report-details" in lines[0]
    gain = re.fullmatch(
        r"  this process: (~[\d.]+x (faster|slower) than plain|no measurable gain) "
        r"\(([\d.]+) (m?s) run since the process started, plain about ([\d.]+) (m?s)\)",
        lines[1],
    )
    assert gain, result.stderr
    # Under the gain, as the run went: the other end of the estimate if the run waited (a loaded
    # machine), and the recording's cost if it weighs; then always start-up, what is left, what ran.
    said = lines[2:]
    if said[0].startswith("    between "):
        assert re.fullmatch(
            r"    between ~[\d.]+x and ~[\d.]+x: it took [\d.]+x its CPU time, waiting for a core or for "
            r"workers or I/O \(the system does not say which\)",
            said[0],
        ), said[0]
        said = said[1:]
    if said[0].startswith("    recording "):
        assert re.fullmatch(r"    recording this report added ~[\d.]+ (m?s) to the run, taken out of these figures", said[0])
        said = said[1:]
    startup = re.fullmatch(r"    of the run, ([\d.]+) (m?s) was patch mode's own start-up \(importing gymspaces, patching\)", said[0])
    assert startup and float(startup[1]) > 0, said[0]
    left = re.match(r"    left: ([\d.]+) (m?s) in space operations \(([\d.]+)% of the run\)[;:] ", said[1])
    assert left and float(left[1]) > 0, said[1]  # a short run's time in space operations does not round to zero
    # Operations are listed by their time, most first; Taxi's two contains
    # calls (the first one judges the space) can outlast 400 samples.
    compiled = re.fullmatch(r"    compiled: (.*)", said[2])
    assert compiled and "Discrete.sample x400" in compiled[1].split(", "), said[2]
    assert lines[-1].startswith("  this report: ") and "replaying calls for the estimate" in lines[-1], lines[-1]


def test_report_flag_after_the_program_goes_to_the_program_with_a_hint(tmp_path: Path) -> None:
    script = tmp_path / "echo.py"
    script.write_text("import sys\nprint(sys.argv[1:])\n")
    result = run(["-m", "gymspaces.gymnasium", str(script), "--report"], tmp_path)
    assert result.returncode == 0 and result.stdout == "['--report']\n", result.stderr
    assert result.stderr.splitlines() == [
        "gymspaces: --report after the program goes to the program; for patch mode's, put it first: "
        f"python -m gymspaces.gymnasium --report {script}"
    ]
