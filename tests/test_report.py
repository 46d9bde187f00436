"""`grpo-code report`: HTML and markdown from real results, rendered in a real headless browser."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from grpo_code.errors import ConfigError
from grpo_code.report import write_report


def make_run(folder, suite, statuses_by_task):
    from grpo_code.results import summarize

    folder.mkdir()
    results = [{"task_id": t, "completion_id": i, "status": s, "pass_rate": 1.0 if s == "passed" else 0.0,
                "tests": []} for t, statuses in statuses_by_task.items() for i, s in enumerate(statuses)]
    (folder / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in results))
    summary = summarize(suite, results, [1, 2])
    summary["model"] = folder.name
    (folder / "summary.json").write_text(json.dumps(summary))
    return folder


@pytest.fixture
def two_runs(tmp_path):
    before = make_run(tmp_path / "before", "warmup-python",
                      {"t/<a>": ["failed", "failed"], "t/b": ["passed", "failed"]})
    after = make_run(tmp_path / "after", "warmup-python", {"t/<a>": ["passed", "failed"], "t/b": ["passed", "passed"]})
    return before, after


def test_report_tables_hold_the_numbers(tmp_path, two_runs):
    paths = write_report(list(two_runs), tmp_path / "report")
    md = paths["md"].read_text()
    assert "| pass@1 | 25.0% | 75.0% | +50.0 pts |" in md
    assert "| pass@2 | 50.0% | 100.0% | +50.0 pts |" in md
    assert "| failed | 3 (75%) | 1 (25%) |" in md
    assert "| t/b | 1/2 passed, pass rate 50.0% | 2/2 passed, pass rate 100.0% | better |" in md
    html = paths["html"].read_text()
    assert "t/&lt;a&gt;" in html and "t/<a>" not in html  # task ids are escaped
    assert "data:image/png;base64," in html and paths["png"].stat().st_size > 5000


@pytest.mark.skipif(shutil.which("chromium") is None, reason="needs Debian's chromium (make test installs it)")
def test_report_renders_in_headless_chromium(tmp_path, two_runs):
    paths = write_report(list(two_runs), tmp_path / "report")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run",
             f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run(["chromium", *flags, "--dump-dom", paths["html"].as_uri()], capture_output=True,
                         text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert dom.stdout.count("<table") == 3 and "+50.0 pts" in dom.stdout
    shot = tmp_path / "shot.png"
    subprocess.run(["chromium", *flags, f"--screenshot={shot}", "--window-size=1200,1600", paths["html"].as_uri()],
                   capture_output=True, timeout=120, check=True)
    assert shot.stat().st_size > 20000  # a rendered page with the plot, not a blank one


def test_report_of_missing_folder_says_what_is_missing(tmp_path):
    with pytest.raises(ConfigError, match=r"summary\.json does not exist"):
        write_report([tmp_path])
