"""The README's usage example runs as written."""

import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def test_readme_usage_example_runs(capsys):
    text = README.read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "README has no python example"
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "[3 0 1]"  # Gymnasium's MultiDiscrete([5, 2, 2], seed=42) first sample


def test_quick_start_has_exactly_two_commands():
    text = README.read_text()
    section = text.split("<!-- quickstart:begin -->")[1].split("<!-- quickstart:end -->")[0]
    commands = [line for line in section.splitlines() if line.startswith(("pip", "python"))]
    assert len(commands) == 2
    assert "python -m gymspaces" in commands[0]
    assert "[test]" in commands[1] and "pytest" in commands[1]
