"""The judge is faithful: every correct program of the fidelity corpus passes every test through it,
but the few the corpus documents as differing by design (``differs``), which must still differ.

The corpus (``tests/fidelity/``, read by ``fidelity_corpus``) holds correct programs written as
people and models write them, in every language and test form; each passes its tests when run
alone in the sandbox image (``benchmarks/fidelity.py`` checks that and prints the agreement of the
two ways). Here the whole corpus goes through the judge in one batch of one ``DockerExecutor``, and
each program is a test of its own (``-k python/sum-open0`` runs only the programs it keeps). A fast
test checks that the corpus is well formed.
"""

from __future__ import annotations

from collections import Counter

import pytest

from fidelity_corpus import EXTENSIONS, load_corpus, program_ids
from grpo_code.suites.tasks import Task, parse_task
from sandbox import LANGUAGES, Verdict

MIN_PROGRAMS = 150


def test_the_corpus_is_well_formed():
    programs = load_corpus()
    ids = [p.id for p in programs]
    assert len(programs) >= MIN_PROGRAMS
    assert len(set(ids)) == len(ids) and ids == program_ids()
    assert set(EXTENSIONS) == set(LANGUAGES) == {p.language for p in programs}
    forms = Counter((p.language, p.form) for p in programs)
    for language, form in [("python", "stdio"), ("python", "call"), ("python", "assert"), ("javascript", "call"),
                           ("typescript", "call"), *((name, "stdio") for name in LANGUAGES)]:
        assert forms[language, form] >= 3, (language, form)
    by_language = Counter(p.language for p in programs)
    assert by_language.most_common(1)[0][0] == "python"
    for p in programs:
        assert isinstance(p.task, Task) and p.task.reference_solution == p.program and p.tags
        assert {t.kind for t in p.task.tests} == {p.form}
        assert len(p.task.tests) >= 2, f"{p.id}: several tests expose state carried from test to test"
        assert parse_task({**p.task.to_dict(), "metadata": dict(p.task.metadata)}) == p.task


@pytest.fixture(scope="module")
def verdicts(request, executor) -> dict[str, Verdict]:
    """Every selected program of the corpus (all of them, or those ``-k`` keeps) through the judge:
    one batch, one executor."""
    chosen = {item.callspec.params["program_id"] for item in request.session.items
              if "program_id" in getattr(getattr(item, "callspec", None), "params", {})}
    programs = load_corpus(ids=chosen)
    return {p.id: v for p, v in zip(programs, executor.run([p.task.job(p.program) for p in programs]), strict=True)}


@pytest.mark.docker
@pytest.mark.parametrize("program_id", program_ids())
def test_a_correct_program_passes_every_test_through_the_judge(verdicts, program_id):
    verdict = verdicts[program_id]
    differs = next(p.differs for p in load_corpus(ids={program_id}))
    failures = [f"test {i}: {t.status}: {t.message}" for i, t in enumerate(verdict.test_results)
                if (t.status != "passed") != (i in differs)]
    compiler = [verdict.compile_output[-500:]] if verdict.status == "compile_error" and verdict.compile_output else []
    assert not failures and (differs or verdict.status == "passed"), \
        "\n".join([f"{program_id}: {verdict.status}", *compiler, *failures])
