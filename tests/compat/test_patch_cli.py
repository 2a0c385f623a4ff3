"""``python -m gymspaces.gymnasium``, the start-up hook and ``report``.

The CLI tests run real interpreters: the program under test is a script file
(or a module) that knows nothing of gymspaces and prints what it observes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import gymnasium
import pytest

from gymspaces.gymnasium import is_patched, patch, report, unpatch

pytestmark = pytest.mark.usefixtures("unpatched")  # conftest: each test starts unpatched

PROGRAM = textwrap.dedent(
    """
    import sys

    import gymnasium
    import numpy as np


    class DictEnv(gymnasium.Env):
        def __init__(self):
            self.observation_space = gymnasium.spaces.Dict(
                {"position": gymnasium.spaces.Box(-1, 1, (3,)), "mode": gymnasium.spaces.Discrete(4)}
            )
            self.action_space = gymnasium.spaces.Discrete(2)

        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)
            self.observation_space.seed(seed)
            from gymspaces.gymnasium import is_compiled  # only to report; the env needs nothing

            return self.observation_space.sample(), {"compiled": is_compiled(self.observation_space)}

        def step(self, action):
            assert self.action_space.contains(action)
            return self.observation_space.sample(), 0.0, False, False, {}


    def main():
        print("argv", sys.argv[1:], "name", __name__)
        envs = gymnasium.vector.AsyncVectorEnv([DictEnv] * 2, context=sys.argv[1])
        observations, info = envs.reset(seed=7)
        print("workers compiled", bool(np.all(info["compiled"])))
        envs.action_space.seed(1)
        for _ in range(3):
            observations, *_ = envs.step(envs.action_space.sample())
        print("mode", observations["mode"].tolist())
        print("position", observations["position"].round(6).tolist())
        envs.close()
        sys.exit(int(sys.argv[2]))


    if __name__ == "__main__":
        main()
    """
)


def run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key != "GYMSPACES_PATCH"}
    environment.update(env)
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=environment, capture_output=True, text=True, timeout=300, check=False
    )


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "train.py"
    path.write_text(PROGRAM)
    return path


@pytest.mark.parametrize("how", ["command", "variable"])
@pytest.mark.parametrize("context", ["spawn", "forkserver", "fork"])
def test_cli_runs_the_program_patched_with_patched_workers(program: Path, context: str, how: str) -> None:
    """``python -m gymspaces.gymnasium``, or ``GYMSPACES_PATCH=1`` alone (the start-up
    hook patches the program, and each spawned or forkserver worker, when it
    imports Gymnasium; forked workers inherit the patch)."""
    plain = run([str(program), context, "0"], program.parent)
    if how == "command":
        patched = run(["-m", "gymspaces.gymnasium", str(program), context, "3"], program.parent)
    else:
        patched = run([str(program), context, "3"], program.parent, GYMSPACES_PATCH="1")
    assert plain.returncode == 0, plain.stderr
    assert patched.returncode == 3, patched.stderr  # the program's own exit status
    assert f"argv ['{context}', '0'] name __main__" in plain.stdout
    assert f"argv ['{context}', '3'] name __main__" in patched.stdout
    assert "workers compiled False" in plain.stdout
    assert "workers compiled True" in patched.stdout
    # Same numbers: the observations the workers sampled are identical.
    numbers = [line for line in plain.stdout.splitlines() if line.startswith(("mode", "position"))]
    assert numbers and numbers == [line for line in patched.stdout.splitlines() if line.startswith(("mode", "position"))]


def test_cli_runs_a_module_and_keeps_tracebacks(tmp_path: Path) -> None:
    package = tmp_path / "trainer"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "__main__.py").write_text(
        "import sys, gymnasium\n"
        "from gymspaces.gymnasium import is_compiled\n"
        "print('module argv', sys.argv[1:], is_compiled(gymnasium.spaces.Discrete(2)))\n"
        "raise KeyError('from the program')\n"
    )
    result = run(["-m", "gymspaces.gymnasium", "-m", "trainer", "--lr", "3"], tmp_path)
    assert result.returncode == 1
    assert "module argv ['--lr', '3'] True" in result.stdout
    assert "KeyError: 'from the program'" in result.stderr
    assert 'trainer/__main__.py", line 4' in result.stderr


def test_cli_usage_errors(tmp_path: Path) -> None:
    assert run(["-m", "gymspaces.gymnasium"], tmp_path).returncode != 0
    assert run(["-m", "gymspaces.gymnasium", "--bogus", "x.py"], tmp_path).returncode != 0
    assert run(["-m", "gymspaces.gymnasium", "-m"], tmp_path).returncode != 0
    assert "usage" in run(["-m", "gymspaces.gymnasium", "--help"], tmp_path).stdout


def test_start_up_hook_patches_only_when_asked(tmp_path: Path) -> None:
    probe = "import sys; from gymspaces.gymnasium import is_patched; print(is_patched())"
    assert run(["-c", probe], tmp_path).stdout.strip() == "False"
    assert run(["-c", probe], tmp_path, GYMSPACES_PATCH="0").stdout.strip() == "False"
    assert run(["-c", probe], tmp_path, GYMSPACES_PATCH="1").stdout.strip() == "True"
    # Unset, the hook imports nothing.
    bare = "import sys; print(sorted(m for m in sys.modules if m.startswith(('gymspaces', 'gymnasium', 'numpy'))))"
    assert run(["-c", bare], tmp_path).stdout.strip() == "[]"


def test_cli_report_lists_operations_and_slow_spaces(tmp_path: Path) -> None:
    script = tmp_path / "custom.py"
    script.write_text(
        "import gymnasium\n"
        "class Coin(gymnasium.spaces.Space):\n"
        "    def sample(self, mask=None, probability=None):\n"
        "        return 'heads'\n"
        "space = gymnasium.spaces.Tuple((gymnasium.spaces.Discrete(3), Coin()))\n"
        "for _ in range(4):\n"
        "    space.sample()\n"
    )
    result = run(["-m", "gymspaces.gymnasium", "--report-details", str(script)], tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert any(line.split()[:2] == ["Discrete.sample", "4"] for line in lines), result.stderr
    assert any(line.split()[:2] == ["Tuple.sample", "4"] for line in lines), result.stderr
    # The place is wrapped below the class where the line would pass 100 columns.
    at = next(index for index, line in enumerate(lines) if line.startswith("__main__.Coin x1  created at"))
    entry = [lines[at]] + [line for line in lines[at + 1 : at + 4] if line.startswith("  ")]
    assert f"{script}:5(<module>)".replace(" ", "") in "".join(entry).replace(" ", ""), result.stderr


def test_cli_report_when_the_environment_already_patches(tmp_path: Path) -> None:
    """With GYMSPACES_PATCH=1 set, the start-up hook patches before the CLI
    asks for a report: the report still counts what ran."""
    script = tmp_path / "plain.py"
    script.write_text("import gymnasium\nspace = gymnasium.spaces.Discrete(3)\nfor _ in range(4):\n    space.sample()")
    result = run(["-m", "gymspaces.gymnasium", "--report-details", str(script)], tmp_path, GYMSPACES_PATCH="1")
    assert result.returncode == 0, result.stderr
    assert any(line.split()[:2] == ["Discrete.sample", "4"] for line in result.stderr.splitlines()), result.stderr


def test_report_true_starts_recording_when_already_patched() -> None:
    patch()
    patch(report=True)
    try:
        space = gymnasium.spaces.Discrete(3, seed=0)
        for _ in range(2):
            space.sample()
        patch()  # does not stop recording
        space.sample()
        table = report(details=True)
    finally:
        unpatch()
    assert any(line.split()[:2] == ["Discrete.sample", "3"] for line in table.splitlines()), table
    assert not is_patched()


def test_report_in_code_counts_while_patched() -> None:
    assert not is_patched()
    patch(report=True)
    try:
        space = gymnasium.spaces.Box(0, 1, (2,), seed=0)
        for _ in range(3):
            space.contains(space.sample())
        gymnasium.spaces.utils.flatten(space, space.sample())
        table = report(details=True)
    finally:
        unpatch()
    rows = [line.split() for line in table.splitlines()[2:] if line[:1].isalpha() and len(line.split()) == 4]
    counts = {row[0]: (int(row[1]), int(row[2])) for row in rows}  # (calls, of them compiled)
    assert counts["Box.sample"] == (4, 4) and counts["Box.contains"] == (3, 3) and counts["flatten"] == (1, 1)
    assert gymnasium.spaces.Space.__init__ is gymnasium.spaces.space.Space.__dict__["__init__"]
