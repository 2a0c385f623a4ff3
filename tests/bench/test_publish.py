"""One set of figures: the documents quote exactly what ``--publish`` renders from the committed run.

``docs/figures.json`` holds one bench run; every figure block of README.md,
docs/performance.md and docs/patching.md must equal what
:mod:`benchmarks.publish` renders from it, so a figure edited by hand, a
document regenerated alone, or a renderer changed without publishing again
fails here. The rest checks the block machinery on small texts.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
from pathlib import Path

import pytest

from benchmarks import cli as _benchcli
from benchmarks import publish as _publish
from benchmarks.left import PREFIX as LEFT
from benchmarks.publish import (
    DOCUMENTS,
    RENDERERS,
    Figures,
    PublishError,
    figures_from,
    load_figures,
    replace_blocks,
    save_figures,
    stale,
)
from benchmarks.realloop import LOOPS
from benchmarks.render import render

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "docs" / "figures.json"
TABLES = ("real-loops", "e2e", "patched-group")
"""The blocks that are Markdown tables."""


@pytest.fixture(scope="module")
def figures() -> Figures:
    return load_figures(COMMITTED)


def _copy_documents(root: Path) -> Path:
    """The three documents copied under ``root``, as a checkout of them."""
    for path in DOCUMENTS:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / path, root / path)
    return root


# ----------------------------------------------------------------- the committed figures


def test_documents_quote_the_committed_run(figures):
    assert stale(figures) == [], (
        "figure blocks differ from docs/figures.json: run `python -m benchmarks --publish docs/figures.json`"
    )


def test_the_committed_file_is_a_compact_whole_run(figures):
    data = json.loads(COMMITTED.read_text())
    assert data["format"] == _publish.FORMAT
    assert COMMITTED.stat().st_size < 200_000  # not pytest-benchmark's JSON, which carries every timing
    assert {"date", "python", "system", "cpu", "cores"} <= set(data["identity"])
    assert {"gymspaces", "gymnasium", "numpy"} <= set(figures.run.versions)
    assert figures.run.mode in ("quick", "full")
    assert figures.cases is None, "the published run measured a subset of the cases"
    assert any(key.startswith("patched_") for key in figures.run.medians)
    assert all("share" in figures.run.extra[key] for key in LOOPS if key in figures.run.medians)


def test_a_figure_edited_by_hand_fails(figures, tmp_path):
    root = _copy_documents(tmp_path)
    readme = root / "README.md"
    text = readme.read_text()
    block = text.split("<!-- figures: real-loops -->")[1]
    edited = re.sub(r"\d\.\d\dx", "9.99x", block, count=1)
    readme.write_text(text.replace(block, edited))
    assert stale(figures, root) == ["README.md"]


def test_every_document_names_its_run_once(figures):
    for path in DOCUMENTS:
        text = (ROOT / path).read_text()
        assert text.count("<!-- figures: source -->") == 1, path
        assert "load average" not in text and "project's 2-core" not in text, path


def test_every_block_a_document_needs_has_a_renderer():
    assert {name for names in DOCUMENTS.values() for name in names} <= set(RENDERERS)


def test_every_loop_has_a_label_in_the_documents():
    assert set(LOOPS) <= set(_publish.LOOP_LABELS)


# ----------------------------------------------------------------- the renderer


def test_publishing_twice_changes_nothing(figures, tmp_path):
    root = _copy_documents(tmp_path)
    path = tmp_path / "figures.json"
    save_figures(path, figures)
    _publish.publish(path, root, chart=False)
    once = {name: (root / name).read_text() for name in DOCUMENTS}
    assert _publish.publish(path, root, chart=False) == []
    assert {name: (root / name).read_text() for name in DOCUMENTS} == once


def test_a_block_is_replaced_whole_and_keeps_its_indentation():
    text = "* item\n  <!-- figures: x -->\n  old\n  old too\n  <!-- /figures -->\nafter\n"
    once = replace_blocks(text, {"x": ["new", "", "line"]}, "doc.md")
    assert once == "* item\n  <!-- figures: x -->\n\n  new\n\n  line\n\n  <!-- /figures -->\nafter\n"
    assert replace_blocks(once, {"x": ["new", "", "line"]}, "doc.md") == once


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("<!-- figures: x -->\nold\n", "doc.md:1: figure block is not closed"),
        ("old\n<!-- /figures -->\n", "doc.md:2: '<!-- /figures -->' closes no figure block"),
        ("<!-- figures: x -->\n<!-- figures: x -->\n<!-- /figures -->\n", "opened at line 1 is not closed"),
        ("<!-- figures: nope -->\n<!-- /figures -->\n", "unknown figure block 'nope'"),
    ],
)
def test_broken_markers_say_where(text, message):
    with pytest.raises(PublishError, match=re.escape(message)):
        replace_blocks(text, {"x": ["new"]}, "doc.md")


def test_a_missing_block_is_named_and_nothing_is_written(figures, tmp_path):
    root = _copy_documents(tmp_path)
    patching = root / "docs" / "patching.md"
    text = patching.read_text()
    patching.write_text(text.replace("<!-- figures: taxi-if-free -->", "<!-- taxi -->", 1))
    before = (root / "README.md").read_text()
    (root / "README.md").write_text(before.replace("2", "3"))  # stale, so a publish would rewrite it
    path = tmp_path / "figures.json"
    save_figures(path, figures)
    with pytest.raises(PublishError, match=re.escape("docs/patching.md: no figure block '<!-- figures: taxi-if-free -->'")):
        _publish.publish(path, root, chart=False)
    assert (root / "README.md").read_text() == before.replace("2", "3")


def _part_of(figures: Figures, keep: list[str], *, has_reference: bool = True) -> Figures:
    """``figures`` as a ``--cases`` run of ``keep`` would have saved them."""
    run = copy.deepcopy(figures.run)
    run.medians = {key: sides for key, sides in run.medians.items() if key in keep}
    run.unmeasured = {"real_minigrid_doorkey": "not installed: minigrid"}
    if not has_reference:
        run.medians = {key: {side: median for side, median in sides.items() if side != "gymnasium"}
                       for key, sides in run.medians.items()}
    return Figures(run, figures.targets, keep, has_reference)


def test_a_partial_run_is_refused_whole_naming_what_it_lacks(figures, tmp_path):
    root = _copy_documents(tmp_path / "checkout")
    before = {path: (root / path).read_text() for path in DOCUMENTS}
    (root / "README.md").write_text(before["README.md"].replace("2", "3"))  # stale: a publish would rewrite it
    path = tmp_path / "part.json"
    kept = ["discrete_sample", "real_taxi_random"]
    save_figures(path, _part_of(figures, kept))
    with pytest.raises(PublishError) as refused:
        _publish.publish(path, root, chart=False)
    message = str(refused.value)
    assert "nothing was written" in message
    named = message.split("missing: ")[1].split(". Publish")[0].split(", ")
    assert named == _publish.uncovered(load_figures(path))
    assert "real_minigrid_doorkey (not installed: minigrid)" in named and "box_sample (not in the run)" in named
    # Every published case but the two measured (the left_* cases are diagnostics, never published).
    published = [case for case in figures.run.medians if not case.startswith(LEFT)]
    assert len(named) == len(published) - len(kept)
    assert (root / "README.md").read_text() == before["README.md"].replace("2", "3")
    assert all((root / path).read_text() == before[path] for path in DOCUMENTS if path != "README.md")


def test_a_run_without_gymnasium_is_refused(figures, tmp_path):
    path = tmp_path / "alone.json"
    save_figures(path, _part_of(figures, list(figures.run.medians), has_reference=False))
    assert _publish.uncovered(load_figures(path)) == [
        "Gymnasium's side of every case (the run had no Gymnasium)"
    ]
    with pytest.raises(PublishError, match="Gymnasium's side"):
        _publish.publish(path, _copy_documents(tmp_path / "checkout"), chart=False)


def test_the_command_refuses_a_partial_run_and_says_why(figures, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(_publish, "ROOT", _copy_documents(tmp_path / "checkout"))
    path = tmp_path / "part.json"
    save_figures(path, _part_of(figures, ["discrete_sample"]))
    assert _benchcli.main(["--publish", str(path)]) == _benchcli.EXIT_USAGE
    captured = capsys.readouterr()
    assert captured.out == "" and "does not hold every figure the documents quote" in captured.err


@pytest.mark.parametrize("name", TABLES)
def test_table_lines_stay_tables(figures, name):
    lines = RENDERERS[name](figures)
    table = [line for line in lines if line.startswith("|")]
    assert table and lines[: len(table)] == table, "a table block starts with its table, in one piece"
    columns = {len(re.findall(r"(?<!\\)\|", line)) for line in table}
    assert len(columns) == 1, f"{name}: rows of different widths"
    assert re.fullmatch(r"\|(---\|)+", table[1])


def test_a_pipe_in_a_cell_is_escaped():
    lines = _publish._markdown_table(["a", "b"], [["x | y", "z"]])
    assert lines[2] == "| x \\| y | z |"


def test_prose_never_wraps_into_a_list_or_a_table():
    text = "word " * 14 + "- not a list item " + "word " * 14 + "| nor a table"
    lines = _publish._paragraph(text, width=75)
    assert " ".join(lines) == " ".join(text.split())
    assert not any(_publish.BLOCK_START.match(line) for line in lines[1:])


# ----------------------------------------------------------------- the figures file


def test_the_figures_file_round_trips(figures, tmp_path):
    path = tmp_path / "figures.json"
    size = save_figures(path, figures)
    assert size == path.stat().st_size
    again = load_figures(path)
    assert render(again.report(), again.run) == render(figures.report(), figures.run)
    assert {name: RENDERERS[name](again) for name in RENDERERS} == {name: RENDERERS[name](figures) for name in RENDERERS}


def test_pytest_benchmark_json_is_read_too():
    data = {
        "datetime": "2030-01-02T03:04:05+00:00",
        "machine_info": {
            "python_implementation": "CPython", "python_version": "3.12.1", "system": "Linux",
            "machine": "x86_64", "cpu": {"brand_raw": "Some CPU", "count": 4},
        },
        "benchmarks": [
            {"extra_info": {"case": "real_taxi_random", "implementation": side, "version": "1", "share": 0.5},
             "stats": {"median": median}, "options": {"max_time": 0.1}}
            for side, median in (("gymspaces", 1.0), ("gymnasium", 3.0))
        ],
        "gymspaces_bench": {"mode": "quick"},
    }
    figures = figures_from(data)
    assert figures.run.identity == {
        "date": "2030-01-02", "python": "CPython 3.12.1", "system": "Linux x86_64", "cpu": "Some CPU", "cores": 4,
    }
    assert "| Taxi, random masked actions, 8,000 steps | 3.000 s | 1.000 s | 3.00x | 50.0% | 2.00x |" in (
        RENDERERS["real-loops"](figures)
    )
    assert "more than the 2.00x it would gain if those operations took no time" in " ".join(RENDERERS["taxi-if-free"](figures))


def test_neither_format_is_refused(tmp_path):
    path = tmp_path / "other.json"
    path.write_text("{}")
    with pytest.raises(_benchcli.UsageError, match="neither a figures file"):
        load_figures(path)


def test_the_command_publishes_into_the_checkout(figures, tmp_path, monkeypatch, capsys):
    root = _copy_documents(tmp_path / "checkout")
    path = tmp_path / "figures.json"
    save_figures(path, figures)
    monkeypatch.setattr(_publish, "ROOT", root)
    monkeypatch.setattr(_publish, "_draw_chart", lambda figures, root: [])
    (root / "docs" / "performance.md").write_text(
        (root / "docs" / "performance.md").read_text().replace("<!-- figures: e2e -->\n", "<!-- figures: e2e -->\nstale\n")
    )
    assert _benchcli.main(["--publish", str(path)]) == 0
    assert capsys.readouterr().out == "wrote docs/performance.md\n"
    assert stale(figures, root) == []
