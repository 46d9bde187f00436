"""Identical jobs of a batch run once and each copy gets its own copy of the verdict; jobs that
differ in anything that can change a verdict are never folded together."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sandbox import DockerExecutor, Job, Limits, TestCase
from sandbox.dedup import collapse

ECHO_SUM = "import sys\nprint(sum(map(float, sys.stdin.read().split())))\n"


def stdio(program=ECHO_SUM, stdin="1 2\n", expected="3.0\n", **fields) -> Job:
    return Job(program=program, tests=(TestCase(kind="stdio", stdin=stdin, expected_stdout=expected),), **fields)


# Each variant differs from its base in one field only, and its verdict differs from the base's.
BASE = stdio()
NEAR = stdio(stdin="1 2.0000001\n")  # 3.0000001: equal to 3.0 within the default float tolerance
PADDED = stdio(expected="3.0 \n")  # equal to the output under the tokens comparison, not exactly
KEYS = Job(program="def f(**kw):\n    return list(kw)\n",  # a program sees the order of its keyword arguments
           tests=(TestCase(kind="call", fn_name="f", kwargs={"a": 1, "b": 2}, expected=["a", "b"]),))
VARIANTS = {  # name: (base, variant, the variant's status); every base passes
    "expected output": (BASE, stdio(expected="4.0\n"), "failed"),
    "stdin": (BASE, stdio(stdin="1 3\n"), "failed"),
    "program": (BASE, stdio(program=ECHO_SUM.replace("sum", "max")), "failed"),
    "limits": (stdio(program="import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3:\n    pass\n"
                     "print(3.0)\n"),
               stdio(program="import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3:\n    pass\n"
                     "print(3.0)\n", limits=Limits(time_limit_s=0.1)), "timeout"),
    "compare": (PADDED, replace(PADDED, compare="exact"), "failed"),
    "float tolerance": (NEAR, replace(NEAR, float_tolerance=0.0), "failed"),
    "language": (BASE, replace(BASE, language="c"), "compile_error"),
    "kwargs order": (KEYS, replace(KEYS, tests=(replace(KEYS.tests[0], kwargs={"b": 2, "a": 1}),)), "failed"),
}
CALL = Job(program="def f(x):\n    return x\n", tests=(TestCase(kind="call", fn_name="f", args=[1], expected=1),))


def test_collapse_folds_only_identical_jobs():
    batch = collapse([BASE, replace(BASE, job_id="other"), BASE])
    assert batch.where == [0, 0, 0] and batch.hits == 2  # job_id is a log label: not part of the job
    for name, (base, variant, _) in VARIANTS.items():
        assert collapse([base, variant]).hits == 0, name
    # values that are equal in Python but not to the judge (1 and 1.0 and True) stay apart
    calls = [replace(CALL, tests=(replace(CALL.tests[0], expected=e),)) for e in (1, 1.0, True)]
    assert collapse(calls).hits == 0
    slower = replace(BASE, limits=Limits(time_limit_s=2.0, wall_time_limit_s=9.0))
    assert collapse([BASE, slower]).hits == 0


def test_collapse_keeps_each_distinct_job_and_says_where_its_copies_are():
    other = stdio(stdin="2 2\n", expected="4.0\n")
    batch = collapse([BASE, other, replace(BASE, job_id="again"), other, BASE])
    assert batch.unique == [BASE, other]  # what the executor runs: the first of each, in order
    assert batch.where == [0, 1, 0, 1, 0] and batch.hits == 3
    assert batch.copies() == {0: [0, 2, 4], 1: [1, 3]}
    # a value JSON has no literal for is still a job (a task may expect NaN)
    nan = replace(CALL, tests=(replace(CALL.tests[0], expected=float("nan")),))
    assert collapse([nan, replace(nan, job_id="copy")]).where == [0, 0]


def test_expand_gives_every_copy_an_independent_verdict():
    from sandbox import Verdict

    batch = collapse([BASE, BASE, BASE])
    verdict = Verdict(status="passed", n_tests=1)
    out = batch.expand([verdict])
    assert out == [verdict] * 3 and len({id(v) for v in out}) == 3
    assert out[0] is verdict  # the first copy gets the verdict itself, only later ones a copy
    with pytest.raises(ValueError, match="0 verdicts for 1 distinct jobs"):
        batch.expand([])


@pytest.mark.docker
def test_copies_run_once_and_variants_run_apart():
    pairs = [job for base, variant, _ in VARIANTS.values() for job in (base, variant)]
    jobs = [BASE] * 4 + pairs + [replace(BASE, job_id="group/1")] * 2
    with DockerExecutor(concurrency=2) as ex:
        seen = []
        verdicts = ex.run(jobs, on_verdict=lambda i, v: seen.append(i))
        stats = ex.stats()
    want = [s for _, _, status in VARIANTS.values() for s in ("passed", status)]
    assert [v.status for v in verdicts] == ["passed"] * 4 + want + ["passed"] * 2
    assert sorted(seen) == list(range(len(jobs)))  # progress is told for every job, copies too
    # BASE appears 4 + 4 (as a base) + 2 times: 9 copies of one run
    assert stats.dedup_hits == 9 and stats.jobs == len(jobs)
    assert len({id(v) for v in verdicts}) == len(jobs)
