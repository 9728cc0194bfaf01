"""One way for every part that holds a device or a file to be used in a `with` block."""

import abc
from types import TracebackType
from typing import Self


class Closing(abc.ABC):
    """A part with a `close()` that is safe to call twice; `with` closes it on the way out."""

    @abc.abstractmethod
    def close(self) -> None:
        """Let the device or file go; calling it again does nothing."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
