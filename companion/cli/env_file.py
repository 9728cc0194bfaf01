"""Reading an environment file as systemd reads it, and splitting a variable into words
as systemd splits an unquoted `$VARIABLE` on a command line.

The table's service takes its options from `/etc/default/dixit-companion` through the
unit's `EnvironmentFile=`, then runs `companion play ... $COMPANION_PLAY_OPTIONS`. What
the file means is what systemd makes of it, which is not what a shell would: both
stages are systemd's own (`parse_env_file_internal` in its src/basic/env-file.c, and
`extract_first_word` with EXTRACT_RELAX), so that the doctor reads the file exactly as
the service will (`companion.cli.table_options`).
"""

from typing import Protocol

SYSTEMD_SPACE = " \t\n\r"
"""What systemd splits an unquoted `$VARIABLE` on (its WHITESPACE): these four only,
where Python's `str.split()` would also split on a no-break space."""
_NEWLINE = "\n\r"
_COMMENT = "#;"
_UNESCAPED_IN_DOUBLE_QUOTES = '"\\`$'
"""What a backslash escapes inside double quotes in an environment file (systemd's
SHELL_NEED_ESCAPE); before any other character the backslash stays."""


def env_file_assignments(text: str) -> list[tuple[str, str]]:
    """The `NAME=value` assignments of an environment file, in order, read as
    systemd's `EnvironmentFile=` reads them, which is not a shell:

    - a line whose first non-blank character is `#` or `;` is a comment; elsewhere
      these are ordinary characters; a line without `=` is skipped;
    - the name is what precedes `=`, without the white space around it;
    - white space after `=` is skipped, and so is white space after a closing quote;
    - `'...'` is taken literally; in `"..."` a backslash takes away its special
      meaning from `"`, `\\`, `$` and a backquote, and a backslash-newline is
      removed, while other backslashes stay; quoted values may span lines;
    - an unquoted part, begun by any other character, runs to the end of the line,
      quotes in it being ordinary characters: a backslash there keeps the next
      character as it is, a backslash-newline joining the next line, and the part's
      trailing white space is removed, unless escaped;
    - quoted parts and a last unquoted part are joined: `"a" 'b'c` is `abc`;
    - the file ends at a NUL character, as a C string does.
    """
    return _EnvFile().read(text.partition("\0")[0])


class _State(Protocol):
    """One state of the reader: takes the next character, gives the state after it."""

    def __call__(self, char: str, /) -> "_State": ...


class _EnvFile:
    """systemd's environment-file parser, a character at a time: one method per state
    of its own, each taking a character and giving the next state."""

    def __init__(self) -> None:
        self.assignments: list[tuple[str, str]] = []
        self.name: list[str] = []
        self.value: list[str] = []
        self.trailing: int | None = None
        """Where the unquoted part's trailing white space begins, if it ends in some."""

    def read(self, text: str) -> list[tuple[str, str]]:
        """Every assignment of `text`, the last one ended by the end of the text."""
        state: _State = self._pre_key
        for char in text:
            state = state(char)
        if state not in (self._pre_key, self._key, self._comment):
            self._assign(cut=state == self._value)
        return self.assignments

    def _assign(self, *, cut: bool) -> _State:
        """Keep the assignment read, without the unquoted part's trailing white space
        if it was `cut` short by the end of its line."""
        end = self.trailing if cut and self.trailing is not None else len(self.value)
        self.assignments.append(
            ("".join(self.name).rstrip(SYSTEMD_SPACE), "".join(self.value[:end]))
        )
        return self._pre_key

    def _pre_key(self, char: str) -> _State:
        if char in _COMMENT:
            return self._comment
        if char in SYSTEMD_SPACE:
            return self._pre_key
        self.name = [char]
        return self._key

    def _key(self, char: str) -> _State:
        if char in _NEWLINE:  # no `=`: not an assignment
            return self._pre_key
        if char == "=":
            self.value, self.trailing = [], None
            return self._pre_value
        self.name.append(char)
        return self._key

    def _pre_value(self, char: str) -> _State:
        if char in _NEWLINE:
            return self._assign(cut=False)
        if char == "'":
            return self._single_quoted
        if char == '"':
            return self._double_quoted
        if char == "\\":
            return self._value_escape
        if char in SYSTEMD_SPACE:
            return self._pre_value
        self.value.append(char)
        return self._value

    def _value(self, char: str) -> _State:
        if char in _NEWLINE:
            return self._assign(cut=True)
        if char == "\\":
            self.trailing = None
            return self._value_escape
        if char not in SYSTEMD_SPACE:
            self.trailing = None
        elif self.trailing is None:
            self.trailing = len(self.value)
        self.value.append(char)
        return self._value

    def _value_escape(self, char: str) -> _State:
        if char not in _NEWLINE:  # a backslash-newline joins the next line
            self.value.append(char)
        return self._value

    def _single_quoted(self, char: str) -> _State:
        if char == "'":
            return self._pre_value
        self.value.append(char)
        return self._single_quoted

    def _double_quoted(self, char: str) -> _State:
        if char == '"':
            return self._pre_value
        if char == "\\":
            return self._double_quoted_escape
        self.value.append(char)
        return self._double_quoted

    def _double_quoted_escape(self, char: str) -> _State:
        if char in _UNESCAPED_IN_DOUBLE_QUOTES:
            self.value.append(char)
        elif char != "\n":
            self.value.extend(("\\", char))
        return self._double_quoted

    def _comment(self, char: str) -> _State:
        return self._pre_key if char in _NEWLINE else self._comment


def systemd_words(value: str) -> tuple[str, ...]:
    """`value` split as systemd splits an unquoted `$VARIABLE`: at its white space,
    outside quotes, a backslash keeping the next character as it is; an unclosed quote
    or a last lone backslash is let be (EXTRACT_RELAX), not refused: the quoted part
    runs to the end, the backslash is dropped (without EXTRACT_UNESCAPE_RELAX systemd
    does not keep it)."""
    words: list[str] = []
    word: list[str] | None = None  # None between words; [] is an empty word, as ''
    quote = ""
    escaped = False
    for char in value:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
            word = word if word is not None else []
            continue
        elif quote:
            if char == quote:
                quote = ""
                continue
        elif char in "'\"":
            quote = char
            word = word if word is not None else []
            continue
        elif char in SYSTEMD_SPACE:
            if word is not None:
                words.append("".join(word))
                word = None
            continue
        word = word if word is not None else []
        word.append(char)
    if word is not None:
        words.append("".join(word))
    return tuple(words)
