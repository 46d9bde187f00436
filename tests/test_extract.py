"""Completion -> program (no Docker)."""

from __future__ import annotations

import pytest

from grpo_code.suites.extract import extract_program, find_code_blocks

HE_PROMPT = 'from typing import List\n\n\ndef total(xs: List[int]) -> int:\n    """Sum of xs."""\n'


def test_fenced_block_with_prose_around():
    text = "Sure! Here it is:\n\n```python\ndef f(x):\n    return x + 1\n```\n\nHope this helps."
    assert extract_program(text, entry_point="f") == "def f(x):\n    return x + 1"


def test_fence_tag_needs_its_own_line():
    # "```def ..." is not a fence with tag "def" (lm-evaluation-harness PR #3710)
    blocks = find_code_blocks("```def f():\n    return 1\n```\n")
    assert all(b.tag != "def" for b in blocks)


def test_block_that_defines_the_entry_point_wins_over_usage_example():
    text = ("```python\ndef f(x):\n    return 2 * x\n```\nUsage:\n```python\nprint(f(3))\n```")
    assert extract_program(text, entry_point="f") == "def f(x):\n    return 2 * x"


def test_last_revision_wins():
    text = "```python\ndef f():\n    return 1\n```\nOops:\n```python\ndef f():\n    return 2\n```"
    assert str(extract_program(text, entry_point="f")).endswith("return 2")


def test_other_language_blocks_are_ignored():
    text = "Run:\n```bash\npython main.py\n```\n```python\nprint(int(input()) * 2)\n```"
    assert extract_program(text) == "print(int(input()) * 2)"
    assert extract_program("```bash\nls\n```") is None


def test_unclosed_block_is_kept():
    assert extract_program("```python\ndef f():\n    return 1", entry_point="f") == "def f():\n    return 1"


def test_human_eval_continuation():
    program = extract_program("    return sum(xs)\n", prompt=HE_PROMPT, entry_point="total")
    assert program == HE_PROMPT + "    return sum(xs)\n"


def test_chat_answer_to_code_prompt_keeps_prompt_imports():
    program = extract_program("```python\ndef total(xs: List[int]) -> int:\n    return sum(xs)\n```",
                              prompt=HE_PROMPT, entry_point="total")
    assert program is not None and program.startswith(HE_PROMPT) and program.endswith("return sum(xs)")
    namespace: dict = {}
    exec(program, namespace)
    assert namespace["total"]([1, 2]) == 3


@pytest.mark.parametrize("text", ["", "   \n", "I am not able to solve this.", "<think>hmm</think>No idea."])
def test_no_code(text):
    assert extract_program(text, entry_point="f") is None


def test_think_sections_are_dropped():
    text = "<think>```python\ndef f():\n    return 0\n```</think>```python\ndef f():\n    return 1\n```"
    assert extract_program(text, entry_point="f") == "def f():\n    return 1"


def test_prose_around_bare_code():
    text = "Here is my solution:\ndef f(x):\n    return x * 3\nThis multiplies by three."
    assert extract_program(text, entry_point="f") == "def f(x):\n    return x * 3"


def test_c_and_cpp():
    c = "```c\n#include <stdio.h>\nint main(void) { return 0; }\n```"
    assert str(extract_program(c, language="c")).startswith("#include")
    cpp = "```cpp\n#include <iostream>\nint main() { std::cout << 1; }\n```"
    assert str(extract_program(cpp, language="cpp")).startswith("#include <iostream>")
    assert extract_program("```c++\nint main(){}\n```", language="cpp") == "int main(){}"
    assert extract_program("```python\nprint(1)\n```", language="c") is None


def test_prose_after_a_code_prompt_is_no_code_but_broken_code_is_a_program():
    assert extract_program("I'm sorry, I can't help with that.", prompt=HE_PROMPT, entry_point="total") is None
    broken = extract_program("    return sum(xs\n", prompt=HE_PROMPT, entry_point="total")
    assert broken == HE_PROMPT + "    return sum(xs\n"  # a compile_error, the model's fault


@pytest.mark.parametrize("language, tags, code", [
    ("javascript", ["js", "javascript", "node", "JS"], "console.log(1);"),
    ("typescript", ["ts", "typescript"], "const x: number = 1;\nconsole.log(x);"),
    ("java", ["java"], "public class Main {\n    public static void main(String[] a) {}\n}"),
    ("rust", ["rs", "rust"], "fn main() {\n    println!(\"1\");\n}"),
    ("go", ["go", "golang"], "package main\n\nfunc main() {}"),
])
def test_each_language_takes_its_own_fence_tags_and_no_other(language, tags, code):
    for tag in tags:
        text = f"Here:\n```python\nprint(1)\n```\nand in {language}:\n```{tag}\n{code}\n```\nDone."
        assert extract_program(text, language=language) == code, tag
    assert extract_program("```python\nprint(1)\n```", language=language) is None  # only another language's block
    assert extract_program(f"Sure:\n```\n{code}\n```", language=language) == code  # an untagged block
    assert extract_program(code, language=language) == code  # bare code
    assert extract_program("I cannot answer that.", language=language) is None
