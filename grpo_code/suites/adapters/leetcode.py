"""LeetCodeDataset (Xia et al. 2025): LeetCode problems in Python, HF ``newfacade/LeetCodeDataset``.

Record schema: ``task_id`` (a slug, ``two-sum``), ``question_id``, ``difficulty``, ``tags``,
``problem_description``, ``starter_code``, ``prompt`` (the imports and helpers its harness puts
before every program: ``ListNode``, ``list_node``, ``is_same_list``, ``TreeNode``, ``tree_node``,
``is_same_tree``, ``inf``), ``completion`` (a reference), ``entry_point`` (``Solution().twoSum``),
``test`` (``def check(candidate):`` and its asserts), ``input_output``, ``estimated_date``.

Its harness runs ``prompt + completion + test`` and then ``check(Solution().twoSum)`` in one
process (3 s in all). Here:

- one ``assert`` test per assert of ``check`` (the statements before it kept in front), for partial
  credit: a GRPO group whose completions each pass some of a task's ~100 asserts has rewards that
  differ, where one test per task would give them all 0 (docs/suites.md, "Bring your data"). A
  sample passes every test exactly when it passes the whole ``check``, so pass@k is its harness's;
- ``candidate(...)`` is ``Solution().method(...)``: the object is made and the method called in
  the program's process (a fresh ``Solution`` per test, as LeetCode's own judge makes one per case);
- the record's ``prompt`` is the task's ``prelude``: the program has every helper, as in its
  harness. The judge's ``test_setup`` (docs/task-format.md) holds the prompt's imports and
  constants, ``is_same_list`` and ``is_same_tree`` (the dataset's, made iterative: a list or tree
  of the program's is walked only as far as the expected one goes) and the builders of expected
  values. So in ``is_same_list(candidate(l1=list_node([2, 4, 3])), list_node([7, 0, 8]))`` the
  argument's ``list_node`` is the program's (its ``ListNode`` must reach the method) and the
  expected list is built in the judge (``expected_list_node``: no object of the program's ever
  stands for an expected value, and no helper of its decides a comparison). A test that uses
  another of the prompt's helpers outside the call's arguments is refused, named;
- public tests: those whose call's arguments are one of the statement's examples (``Input: ...``
  lines of ``problem_description``); the others hidden;
- 3 s a test: the harness's time for the whole check.
"""

from __future__ import annotations

import ast
import copy
import re

from grpo_code.suites.adapters.common import required_field
from grpo_code.suites.adapters.humaneval import has_assert, is_constant_assert
from grpo_code.suites.tasks import Task
from sandbox import Limits, TestCase

PROMPT_TEMPLATE = ("{prompt}\n"
                   "Answer with the complete {language} class in one ```{language} code block.")

TIME_LIMIT_S = 3.0

# The judge's own: the dataset's comparisons, made iterative, and the builders of the expected
# values (a ListNode or TreeNode of the judge's, never the program's).
JUDGE_HELPERS = '''

class ExpectedListNode:
    def __init__(self, val=0, next=None):
        self.val = val
        self.next = next


def expected_list_node(values):
    head = None
    for val in reversed(list(values)):
        head = ExpectedListNode(val, head)
    return head


def is_same_list(p1, p2):
    while p1 is not None or p2 is not None:
        if not p1 or not p2 or not (p1.val == p2.val):
            return False
        p1, p2 = p1.next, p2.next
    return True


class ExpectedTreeNode:
    def __init__(self, val=0, left=None, right=None):
        self.val = val
        self.left = left
        self.right = right


def expected_tree_node(values):
    values = list(values)
    if not values:
        return None
    root = ExpectedTreeNode(values[0])
    queue, i = [root], 1
    while queue:
        node = queue.pop(0)
        if i < len(values) and values[i] is not None:
            node.left = ExpectedTreeNode(values[i])
            queue.append(node.left)
        i += 1
        if i < len(values) and values[i] is not None:
            node.right = ExpectedTreeNode(values[i])
            queue.append(node.right)
        i += 1
    return root


def is_same_tree(p, q):
    pairs = [(p, q)]
    while pairs:
        a, b = pairs.pop()
        if not a and not b:
            continue
        if not a or not b or a.val != b.val:
            return False
        pairs += [(a.right, b.right), (a.left, b.left)]
    return True
'''
# the prompt's helpers a test may name outside the call's arguments, and the judge's name for each
JUDGE_NAMES = {"list_node": "expected_list_node", "tree_node": "expected_tree_node",
               "ListNode": "ExpectedListNode", "TreeNode": "ExpectedTreeNode",
               "is_same_list": "is_same_list", "is_same_tree": "is_same_tree"}
BUILDERS = ("list_node", "tree_node")  # an argument built by one of these is its plain list, for examples

_ENTRY = re.compile(r"\s*(?:(\w+)\(\)\.)?(\w+)\s*\Z")


def entry_of(entry_point: str) -> tuple[str | None, str]:
    """``Solution().twoSum`` -> ``("Solution", "twoSum")``; ``twoSum`` -> ``(None, "twoSum")``.

    Raises:
        ValueError: another form.
    """
    match = _ENTRY.match(entry_point or "")
    if match is None:
        raise ValueError(f"'entry_point' must be Class().method or a function name, got {entry_point!r}")
    return match.group(1), match.group(2)


def judge_setup(prompt: str) -> str:
    """The judge's test setup: the prompt's imports and top-level assignments (``inf``), then
    ``JUDGE_HELPERS``; never the prompt's functions and classes (the program's)."""
    try:
        tree = ast.parse(prompt)
    except (SyntaxError, ValueError, RecursionError) as e:
        raise ValueError(f"'prompt' is not Python code: {e}") from None
    lines = prompt.splitlines()
    kept = ["\n".join(lines[node.lineno - 1:node.end_lineno]) for node in tree.body
            if isinstance(node, (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign))]
    return "\n".join(kept) + "\n" + JUDGE_HELPERS


def _helpers(prompt: str) -> set[str]:
    """The names the prompt's functions and classes bind (the program's helpers)."""
    tree = ast.parse(prompt)
    return {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}


class _ToJudge(ast.NodeTransformer):
    """A check statement as the judge runs it: ``candidate`` is the method of a fresh object of the
    program's; outside the call's arguments the prompt's helpers are the judge's."""

    def __init__(self, target: ast.expr, helpers: set[str]):
        self.target, self.helpers = target, helpers

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if isinstance(node.func, ast.Name) and node.func.id == "candidate":
            node.func = copy.deepcopy(self.target)  # the arguments are left as written: built in the program's process
            return node
        return self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id == "candidate":
            return ast.copy_location(copy.deepcopy(self.target), node)
        if node.id in JUDGE_NAMES:
            node.id = JUDGE_NAMES[node.id]
        elif node.id in self.helpers:
            raise ValueError(f"a test uses the prompt's {node.id} outside the call's arguments, where the judge has "
                             "no copy of it (only of list_node, tree_node, is_same_list and is_same_tree)")
        return node


def check_tests(test: str, cls: str | None, method: str, helpers: set[str]) -> list[str]:
    """One test's code per assert-bearing statement of ``check(candidate)`` (the statements before
    it in front), ``candidate`` made the method of a fresh object of ``cls`` (or the function
    ``method``), the prompt's helpers outside its arguments the judge's.

    Raises:
        ValueError: no ``check``, or a test that needs a helper the judge has no copy of.
    """
    try:
        module = ast.parse(test)
    except (SyntaxError, ValueError, RecursionError) as e:
        raise ValueError(f"'test' is not Python code: {e}") from None
    check = next((n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == "check"), None)
    if check is None:
        raise ValueError("'test' has no check(candidate) function")
    target = ast.Attribute(value=ast.Call(func=ast.Name(cls, ast.Load()), args=[], keywords=[]), attr=method,
                           ctx=ast.Load()) if cls else ast.Name(method, ast.Load())
    codes: list[str] = []
    setup: list[str] = []
    for stmt in check.body:
        rewritten = ast.unparse(ast.fix_missing_locations(_ToJudge(target, helpers).visit(stmt)))
        if has_assert(stmt):
            codes.append("\n".join([*setup, rewritten]))
        elif not is_constant_assert(stmt):
            setup.append(rewritten)
    return codes


def _value(node: ast.expr):
    """A literal argument's value (``list_node([...])`` and ``tree_node([...])`` as their list)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in BUILDERS \
            and len(node.args) == 1:
        node = node.args[0]
    return ast.literal_eval(node)


def _arguments_key(call: ast.Call) -> str | None:
    """A call's keyword arguments as a comparable text; None when not all are literals."""
    try:
        return repr(sorted((k.arg, _value(k.value)) for k in call.keywords if k.arg is not None))
    except (ValueError, TypeError, SyntaxError, RecursionError):
        return None


def example_inputs(description: str) -> set[str]:
    """The statement's example inputs (``Input: nums = [2,7,11,15], target = 9``), as
    ``_arguments_key`` writes a call's."""
    found = set()
    for line in description.splitlines():
        text = line.strip()
        if not text.lower().startswith("input:"):
            continue
        text = re.sub(r"\bnull\b", "None", re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", text[6:])))
        try:
            call = ast.parse(f"f({text.strip()})", mode="eval").body
        except (SyntaxError, ValueError, RecursionError):
            continue
        key = _arguments_key(call) if isinstance(call, ast.Call) else None
        if key is not None:
            found.add(key)
    return found


def _shown(code: str, cls: str | None, method: str, examples: set[str]) -> bool:
    """Whether the test's every call of the method has one of the examples' arguments."""
    calls = [n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Call)
             and ast.unparse(n.func) == (f"{cls}().{method}" if cls else method)]
    return bool(calls) and all(_arguments_key(c) in examples for c in calls)


def task_from_record(record: dict, index: int) -> Task:
    """The ``Task`` of one record of the data set (``index``: its place, for errors).

    Raises:
        ValueError: the record does not fit the schema (the message names the field).
    """
    slug = required_field(record, "task_id")
    harness_prompt = required_field(record, "prompt")
    cls, method = entry_of(required_field(record, "entry_point"))
    setup = judge_setup(harness_prompt)
    description = str(record.get("problem_description") or record.get("query") or "").strip()
    if not description:
        raise ValueError("the record has no 'problem_description'")
    codes = check_tests(required_field(record, "test"), cls, method, _helpers(harness_prompt))
    if not codes:
        raise ValueError("'test' has no assert in check(candidate)")
    examples = example_inputs(description)
    tests = tuple(TestCase(kind="assert", code=c, visibility="public" if _shown(c, cls, method, examples)
                           else "hidden") for c in codes)
    starter = (record.get("starter_code") or "").rstrip()
    prompt = description + (f"\n\nPlease complete the following python code precisely:\n```python\n{starter}\n```\n"
                            if starter else "\n")
    return Task(task_id=f"leetcode/{slug}", prompt=prompt, tests=tests, language="python", entry_point=method,
                reference_solution=record.get("completion") or None, limits=Limits(time_limit_s=TIME_LIMIT_S),
                prelude=harness_prompt, test_setup=setup,
                metadata={"source": "newfacade/LeetCodeDataset", "question_id": record.get("question_id"),
                          "difficulty": record.get("difficulty"), "tags": list(record.get("tags") or []),
                          "estimated_date": str(record.get("estimated_date") or ""), "index": index})
