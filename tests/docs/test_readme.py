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


def test_readme_links_are_absolute_and_point_at_this_repository():
    """The README is also the package index's project page, where relative
    links and images break: each points at the repository [project.urls]
    names (pages on its main branch, images as raw files) and at a file
    that exists here."""
    import sys

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    root = README.parent
    source = tomllib.loads((root / "pyproject.toml").read_text())["project"]["urls"]["Source"].rstrip("/")
    owner_repo = re.fullmatch(r"https://github\.com/([\w.-]+/[\w.-]+)", source).group(1)
    pages = f"https://github.com/{owner_repo}/blob/main/"
    raw = f"https://raw.githubusercontent.com/{owner_repo}/main/"
    text = README.read_text()
    links = re.findall(r"(!?)\[[^\]]*\]\(([^)\s]+)\)", text)
    assert links, "README has no links"
    for image, target in links:
        assert target.startswith(("https://", "#")), f"relative link in README: {target}"
        prefix = raw if image else pages
        if target.startswith((pages, raw)):
            assert target.startswith(prefix), f"{target}: {'images' if image else 'pages'} go under {prefix}"
            path = root / target[len(prefix):].split("#")[0]
            assert path.exists(), f"{target}: no {path.relative_to(root)} in the tree"
    assert any(image for image, _ in links), "the README's chart is an image link"
