"""`grpo-code report`: HTML and markdown from real results and a real training run's logs
(``fixtures/train-run``: trainer_state.json and completions/*.parquet of a GRPO run of the tiny
model, see test_train.py), rendered in a real headless browser."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grpo_code.analysis.report import write_report
from grpo_code.errors import ConfigError

FIXTURES = Path(__file__).parent / "fixtures"


def make_run(folder, suite, statuses_by_task):
    from grpo_code.analysis.results import summarize

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
    paths = write_report(list(two_runs), tmp_path / "report").files
    md = paths["md"].read_text()
    # each figure with its bootstrap interval over the 2 tasks; the change with the paired test:
    # with 2 tasks the smallest sign-flip p-value is 2/4, so +50 points is within noise
    assert ("| pass@1 | 25.0% [0.0, 50.0] | 75.0% [50.0, 100.0] | +50.0 pts [-100.0, +100.0] | 0.500 "
            "| within noise |") in md
    # pass@2 per task 0, 1 -> 1, 1: differences 1 and 0, every sign pattern as extreme: p = 1
    assert ("| pass@2 | 50.0% [0.0, 100.0] | 100.0% [100.0, 100.0] | +50.0 pts [-100.0, +100.0] | 1.000 "
            "| within noise |") in md
    # pass^2 per task 0, 0 -> 0, 1 (all of a task's two samples pass): beside pass@k, the same treatment
    assert ("| pass^2 | 0.0% [0.0, 0.0] | 50.0% [0.0, 100.0] | +50.0 pts [-100.0, +100.0] | 1.000 "
            "| within noise |") in md
    assert "| failed | 3 (75%) | 1 (25%) |" in md
    # one task, 1/2 -> 2/2 passed: two samples each can never show a change (p >= 2/6)
    assert ("| t/b | 1/2 passed, pass rate 50.0% | 2/2 passed, pass rate 100.0% | +50.0 pts | 1.000 "
            "| within noise |") in md
    assert "better" not in md.split("## Summary")[1].split("pass@k: the unbiased")[0]
    html = paths["html"].read_text()
    assert "t/&lt;a&gt;" in html and "t/<a>" not in html  # task ids are escaped
    assert "data:image/png;base64," in html and paths["png"].stat().st_size > 5000
    assert "paired sign-flip permutation test" in html and "Efron &amp; Tibshirani 1993" in html


def test_report_of_one_run_gives_each_figure_its_interval(tmp_path, two_runs):
    md = write_report([two_runs[0]], tmp_path / "report").files["md"].read_text()
    assert "|  | before |\n" in md and "| pass@1 | 25.0% [0.0, 50.0] |\n" in md
    assert "| t/b | 1/2 passed, pass rate 50.0% |\n" in md
    tables = md.split("## Summary")[1].split("pass@k: the")[0]
    assert "within noise" not in tables and "change" not in tables


def thirteen_tasks(passed: int, n: int = 8) -> dict[str, list[str]]:
    return {f"t/{i:02d}": ["passed"] * passed + ["failed"] * (n - passed) for i in range(13)}


def test_a_change_beyond_noise_is_labelled_per_run_and_per_task(tmp_path):
    before = make_run(tmp_path / "before", "warmup-python", thirteen_tasks(0))
    after = make_run(tmp_path / "after", "warmup-python", thirteen_tasks(8))
    md = write_report([before, after], tmp_path / "report").files["md"].read_text()
    # 13 tasks all up by 100 points: p = 2 / 2^13 (exact sign-flip)
    assert ("| mean pass rate | 0.0% [0.0, 0.0] | 100.0% [100.0, 100.0] | +100.0 pts [+100.0, +100.0] | < 0.001 "
            "| better |") in md
    # one task 0/8 -> 8/8: p = 2 / C(16, 8), times 13 by Holm = 0.002
    assert "| t/00 | 0/8 passed, pass rate 0.0% | 8/8 passed, pass rate 100.0% | +100.0 pts | 0.002 | better |" in md
    assert "mean pass rate 0.0% → 100.0%, +100.0 pts" in md and "p < 0.001): better." in md
    worse = write_report([after, before], tmp_path / "report-worse").files["md"].read_text()
    assert "| -100.0 pts [-100.0, -100.0] | < 0.001 | worse |" in worse


def test_identical_runs_are_within_noise_everywhere(tmp_path):
    statuses = {f"t/{i:02d}": ["passed"] * (i % 5) + ["failed"] * (8 - i % 5) for i in range(13)}
    first = make_run(tmp_path / "first", "warmup-python", statuses)
    second = make_run(tmp_path / "second", "warmup-python", statuses)
    md = write_report([first, second], tmp_path / "report").files["md"].read_text()
    rows = [line for line in md.splitlines() if line.startswith(("| t/", "| pass@", "| mean pass rate"))]
    assert len(rows) == 13 + 3 and all(row.endswith("| within noise |") for row in rows)
    assert "| mean pass rate | 22.1%" in md and "+0.0 pts" in md  # 23 of 104 samples passed


def test_report_of_a_training_run_alone_shows_its_curves(tmp_path):
    run = FIXTURES / "train-run"
    paths = write_report([run], tmp_path / "report").files
    md = paths["md"].read_text()
    assert "## Training:" in md and paths["training_png"].stat().st_size > 5000 and "png" not in paths
    assert "| steps logged | 3 (last step 3) |" in md
    assert "| mean pass rate, first quarter of steps → last quarter | 75.0% → 75.0% |" in md
    assert "### Completions, early (step 1)" in md and "### Completions, late (step 3)" in md
    assert "failed (0/2 tests), reward 0.00" in md and "passed (2/2 tests), reward 1.00" in md


def test_a_training_run_of_trl_s_own_script_is_titled_without_a_suite(tmp_path):
    # examples/train_trl.py leaves trainer_state.json and the model: no summary.json names its suite
    run = tmp_path / "example-trl"
    run.mkdir()
    shutil.copy(FIXTURES / "train-run" / "trainer_state.json", run / "trainer_state.json")
    paths = write_report([run]).files
    assert paths["md"].read_text().splitlines()[0] == "# grpo-code report: training run example-trl"
    assert "<title>grpo-code report: training run example-trl</title>" in paths["html"].read_text()
    paths = write_report([FIXTURES / "train-run"], tmp_path / "report").files  # one that names it
    assert paths["md"].read_text().splitlines()[0] == "# grpo-code report: training run train-run (suite.jsonl)"


def test_before_after_with_training_within_noise_says_smoke_run(tmp_path, two_runs):
    report = write_report(list(two_runs), tmp_path / "report", train_dir=FIXTURES / "train-run")
    md = report.files["md"].read_text()
    assert "Smoke run: too short to show learning: the change is within noise by this test." in md
    assert report.headline is not None
    assert report.headline in md and report.headline.endswith("within noise by this test.")
    assert md.index("Smoke run") < md.index("## Summary") < md.index("## Training:")


def test_report_reads_summaries_written_before_they_had_intervals(tmp_path, two_runs):
    before, after = two_runs
    for folder in two_runs:
        summary = json.loads((folder / "summary.json").read_text())
        summary = {k: v for k, v in summary.items() if k != "ci" and not k.endswith("_se")}
        (folder / "summary.json").write_text(json.dumps(summary))
    md = write_report([before, after], tmp_path / "report").files["md"].read_text()
    assert "| pass@1 | 25.0% [0.0, 50.0] | 75.0% [50.0, 100.0] |" in md


@pytest.mark.slow  # a browser starts twice
@pytest.mark.skipif(shutil.which("chromium") is None, reason="needs Debian's chromium (make test installs it)")
def test_report_renders_in_headless_chromium(tmp_path, two_runs):
    paths = write_report(list(two_runs), tmp_path / "report").files
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run",
             f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run(["chromium", *flags, "--dump-dom", paths["html"].as_uri()], capture_output=True,
                         text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert dom.stdout.count("<table") == 3 and "+50.0 pts" in dom.stdout and "within noise" in dom.stdout
    shot = tmp_path / "shot.png"
    subprocess.run(["chromium", *flags, f"--screenshot={shot}", "--window-size=1200,1600", paths["html"].as_uri()],
                   capture_output=True, timeout=120, check=True)
    assert shot.stat().st_size > 20000  # a rendered page with the plot, not a blank one


def test_report_of_missing_folder_says_what_is_missing(tmp_path):
    with pytest.raises(ConfigError, match=r"summary\.json does not exist"):
        write_report([tmp_path])
    with pytest.raises(ConfigError, match=r"has no trainer_state\.json"):
        write_report([], train_dir=tmp_path)


def grpo_code(*args):
    return subprocess.run([sys.executable, "-m", "grpo_code.cli", *args], capture_output=True, text=True, timeout=300)


@pytest.mark.slow  # four runs of the command, one of them a whole report with its figures
def test_report_command_errors_are_one_line(tmp_path, two_runs):
    proc = grpo_code("report")
    assert proc.returncode == 2 and proc.stderr.strip().splitlines() == [
        "error: give one or two evaluation run folders and/or a training run folder"]
    proc = grpo_code("report", *map(str, two_runs), str(two_runs[0]))
    assert proc.returncode == 2 and "give one evaluation run folder, or two to compare (got 3)" in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    proc = grpo_code("report", str(tmp_path / "nope"))
    assert proc.returncode == 2 and "nope/summary.json does not exist" in proc.stderr
    proc = grpo_code("report", *map(str, two_runs), "--train", str(FIXTURES / "train-run"),
                     "--out", str(tmp_path / "r"))
    assert proc.returncode == 0, proc.stderr
    assert f"report: {tmp_path / 'r' / 'report.html'} (and report.md, report.png, training.png)" in proc.stdout
    # the headline first: what a demo's last lines say
    assert proc.stdout.startswith("before → after: mean pass rate 25.0% → 75.0%, +50.0 pts")
    assert "Smoke run: too short to show learning" in proc.stdout.splitlines()[0]
