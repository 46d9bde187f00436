"""Completion text -> program: markdown fences, language tags, prompt continuation.

A completion is either a chat answer holding code in markdown fences (with or without a
language tag, several blocks, prose around them, perhaps a fence that the generation prefix
opened), bare code, or a human-eval style continuation of a code prompt (program = prompt +
completion). ``extract_program`` returns the program, or None when nothing runnable is there
(the ``no_code`` status).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

LANGUAGE_TAGS = {
    "python": {"python", "py", "python3", "py3"},
    "c": {"c", "h"},
    "cpp": {"cpp", "c++", "cc", "cxx", "hpp"},
    "javascript": {"javascript", "js", "node", "nodejs", "mjs", "cjs", "jsx"},
    "typescript": {"typescript", "ts", "tsx", "mts"},
    "java": {"java"},
    "rust": {"rust", "rs"},
    "go": {"go", "golang"},
}
# A fence line: ``` or ~~~ (3 or more), then an optional one-word info string, then the line ends.
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})[ \t]*([A-Za-z0-9_+#.-]*)[ \t]*$")
_THINK = re.compile(r"<think>.*?</think>", re.S)
_CODE_HINT = {
    "python": re.compile(r"^\s*(def |class |import |from \S+ import |return\b|print\(|for |while |if |\w+\s*=)", re.M),
    "c": re.compile(r"#include|\bint\s+main\s*\("),
    "cpp": re.compile(r"#include|\bint\s+main\s*\("),
    "javascript": re.compile(r"^\s*(function\s+\w|(const|let|var)\s+\w|console\.log\(|require\(|import\s)", re.M),
    "typescript": re.compile(r"^\s*(function\s+\w|(const|let|var)\s+\w|console\.log\(|require\(|import\s)", re.M),
    "java": re.compile(r"\bclass\s+\w+|\bstatic\s+void\s+main\s*\("),
    "rust": re.compile(r"\bfn\s+main\s*\(|^\s*use\s+std\b", re.M),
    "go": re.compile(r"^\s*package\s+main\b|\bfunc\s+main\s*\(", re.M),
}


@dataclass(frozen=True)
class CodeBlock:
    """One fenced block: its info string (lower case, may be empty) and its content.

    ``end`` is the offset in the text just past the closing fence line and its newline: None
    when the block is not closed, or when its closing fence is the text's last line (a line
    that may still grow: "```" can become "```python" as generation goes on).
    """

    tag: str
    code: str
    closed: bool = True
    end: int | None = None


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
        return True
    except (SyntaxError, ValueError):
        return False


def _looks_like_code(text: str, language: str) -> bool:
    if not text.strip():
        return False
    if language == "python":
        return _parses(text) and bool(_CODE_HINT["python"].search(text))
    return bool(_CODE_HINT[language].search(text))


def find_code_blocks(text: str, language: str = "python") -> list[CodeBlock]:
    """The fenced blocks of ``text``, in order.

    A fence line holds only the fence and an optional one-word tag (so "```def f(a):" is not a
    fence with tag "def"). When the text starts with code and its first fence is bare, that
    fence closes a block the generation prefix opened.
    """
    lines = text.split("\n")
    blocks: list[CodeBlock] = []
    opened_at: int | None = None
    fence = tag = ""
    offset = 0  # where line i starts in text
    for i, line in enumerate(lines):
        start, offset = offset, offset + len(line) + 1
        m = _FENCE.match(line)
        if m is None:
            continue
        marker, info = m.group(1), m.group(2).lower()
        end = offset if i < len(lines) - 1 else None
        if opened_at is None:
            prefix = text[:max(start - 1, 0)]  # the lines before this one
            if not blocks and not info and _looks_like_code(prefix, language):
                blocks.append(CodeBlock("", prefix.strip("\n"), end=end))
                continue
            opened_at, fence, tag = i + 1, marker, info
        elif not info and marker[0] == fence[0] and len(marker) >= len(fence):
            blocks.append(CodeBlock(tag, "\n".join(lines[opened_at:i]).strip("\n"), end=end))
            opened_at = None
    if opened_at is not None:  # cut off mid-block (max tokens): keep what is there
        blocks.append(CodeBlock(tag, "\n".join(lines[opened_at:]).strip("\n"), closed=False))
    return blocks


# the tags of an answer's block: a language the sandbox runs, or none
ANSWER_TAGS = frozenset({""}.union(*LANGUAGE_TAGS.values()))


def _first_answer_block_end(text: str) -> int | None:
    for block in find_code_blocks(text):
        if block.end is not None and block.tag in ANSWER_TAGS and block.code.strip():
            return block.end
    return None


def answer_end(text: str) -> int | None:
    """Where the answer of a completion ends: the offset just past the closing fence line (and
    its newline) of its first closed, non-empty code block in a language the sandbox runs, or
    untagged (the prompts ask for one block: what follows is prose, usage examples or a second
    try). A ``<think>`` section that opens before that block is a reasoning model's draft, not
    its answer: the answer is looked for after the section's ``</think>`` (None while it is
    open). None while no such block is closed. ``text[:answer_end(text)]`` is the answer.

    Stable as text grows: once it has a value, no text appended changes it (so generation can
    stop there, and a cut completion gives the same answer as the whole one).
    """
    end = _first_answer_block_end(text)
    opened = text.find("<think>")
    if end is None or opened < 0 or opened >= end:
        return end
    closed = text.find("</think>", opened)
    if closed < 0:
        return None
    skip = closed + len("</think>")
    rest = _first_answer_block_end(text[skip:])
    return None if rest is None else skip + rest


def cut_at_answer(text: str) -> str:
    """``text`` up to the end of its answer's code block (``answer_end``); all of it when no
    block is closed."""
    end = answer_end(text)
    return text if end is None else text[:end]


def _defines(code: str, entry_point: str, language: str) -> bool:
    if language == "python":
        return re.search(rf"^\s*(async\s+)?def\s+{re.escape(entry_point)}\s*\(", code, re.M) is not None
    return re.search(rf"\b{re.escape(entry_point)}\s*\(", code) is not None


def _choose(blocks: list[CodeBlock], language: str, entry_point: str | None) -> str | None:
    tags = LANGUAGE_TAGS[language]
    tagged = [b for b in blocks if b.tag in tags and b.code.strip()]
    untagged = [b for b in blocks if not b.tag and b.code.strip()]
    for candidates in (tagged, untagged):
        if not candidates:
            continue
        if entry_point:
            defining = [b for b in candidates if _defines(b.code, entry_point, language)]
            if defining:
                return defining[-1].code  # a later block that defines it is a revision
        if language == "python":
            parsing = [b for b in candidates if _looks_like_code(b.code, language)]
            candidates = parsing or candidates
        return max(candidates, key=lambda b: len(b.code)).code  # usage examples are short
    return None


def _trim_prose(text: str) -> str | None:
    """The longest stretch of lines, from the first code-looking line, that parses as Python."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines)
                  if re.match(r"(def |class |import |from \S+ import |async def )", line)), None)
    if start is None:
        return None
    for end in range(len(lines), start, -1):
        candidate = "\n".join(lines[start:end])
        if _parses(candidate):
            return candidate
    return None


def _is_code_prompt(prompt: str | None) -> bool:
    """A human-eval style prompt: Python source (imports, signature, docstring)."""
    return prompt is not None and "def " in prompt and _parses(prompt)


def extract_program(completion: str, language: str = "python", prompt: str | None = None,
                    entry_point: str | None = None) -> str | None:
    """Turn a completion into the program to run.

    Args:
        completion: the model's text.
        language: the task's language (a key of ``LANGUAGE_TAGS``: ``python``, ``c``, ``cpp``,
            ``javascript``, ``typescript``, ``java``, ``rust``, ``go``).
        prompt: the task's raw prompt; when it is Python source (human-eval style), the program
            is the prompt followed by the extracted code, so a continuation or a block that
            only redefines the entry point still has the prompt's imports and helpers.
        entry_point: the function under test; among several blocks, the last one that
            defines it wins.

    Returns:
        The program text, or None if nothing runnable could be extracted.
    """
    text = _THINK.sub("", completion.replace("\r\n", "\n"))
    if not text.strip():
        return None
    blocks = find_code_blocks(text, language)
    code = _choose(blocks, language, entry_point) if blocks else None
    # the prompt, when it is Python source to continue (parsed once: prompts can be long)
    code_prompt = prompt if language == "python" and prompt is not None and _is_code_prompt(prompt) else None
    if code is None:
        if blocks:  # only blocks of other languages, or empty ones
            return None
        code = text
        if code_prompt is not None and not _parses(code_prompt + code) and not _CODE_HINT[language].search(code):
            return None  # prose after a code prompt: nothing to run
        if code_prompt is None and not _looks_like_code(code, language):
            if not _CODE_HINT[language].search(code):
                return None
            # Code in prose without fences: the part that parses; else broken code, which is
            # a compile_error (the program's fault), not no_code.
            code = (_trim_prose(code) if language == "python" else None) or code.strip("\n")
    if code_prompt is not None:
        joiner = "" if code_prompt.endswith("\n") else "\n"
        if blocks:
            joiner += "\n"
        return code_prompt + joiner + code
    return code
