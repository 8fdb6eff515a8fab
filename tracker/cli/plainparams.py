"""Text, path and flag options taken as given, without typer's pydantic coercion.

typer (0.2x) coerces every parameter value through a pydantic ``TypeAdapter``: the first
option a command reads imports pydantic, 0.05-0.07 CPU s of a ``tracker build`` process
that otherwise loads no pydantic (bench/RESULTS.md). A ``str`` option given text needs
nothing done, nor a flag given a bool (``--help`` is coerced even when absent), and a
``Path`` one only ``Path(text)`` before typer's own checks (``coerce_cli_path``: exists,
readable, ...), which is what the adapter does for text.
Any other annotation or value (bytes, a list, ``int``...) keeps typer's coercion.
Relies on typer's lazily built ``_runtime_param`` of each parameter (typer >= 0.2x);
without it, typer's coercion stays in place.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from typer import _coercion, _param_types


@dataclass(frozen=True)
class PlainParam(_coercion.RuntimeParam):
    """Coercion of a ``str``, ``bool`` or ``Path`` parameter: text (a bool, a Path) as
    is, anything else through typer's own coercion for the annotation."""

    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        if self.annotation in (str, bool) and isinstance(value, self.annotation):
            return value
        if self.annotation is Path and isinstance(value, (str, Path)) and value != "":
            return _param_types.coerce_cli_path(
                Path(value), self.parameter_info, path_type=Path, param=param, ctx=ctx
            )
        typed = _coercion.TypeDescriptor(self.annotation, self.parameter_info, None)
        return _coercion.build_runtime_param(typed)._coerce_value(value, param, ctx)


def use_plain_params(params: list[Any]) -> None:
    """Give each of ``params`` (a command's) whose annotation is ``str``, ``bool`` or
    ``Path`` (optional or not), without a custom parser or file type and not coerced
    yet, a :class:`PlainParam`."""
    for p in params:
        desc = getattr(p, "type_descriptor", None)
        if desc is None or getattr(p, "_runtime_param", False) is not None:
            continue
        info = desc.parameter_info
        custom = info.parser or info.path_type or getattr(info, "click_type", None)
        if desc.annotation in (str, bool, Path) and desc.file_annotation is None and not custom:
            p._runtime_param = PlainParam(parameter_info=info, annotation=desc.annotation)
