"""The options reference: every option of lab-check, read from its argparse parser itself, so
that the documentation can never list an option the command lacks or miss one it has."""

from __future__ import annotations

import argparse


def reference(parser: argparse.ArgumentParser | None = None) -> str:
    """Markdown: for each group of the parser, a heading and one line an option, its
    invocation as `--help` writes it (`--hint [TEST]`, `--export {canvas,csv}`) and its help."""
    if parser is None:
        from lab.lab_check import parser as lab_check_parser
        parser = lab_check_parser()
    formatter = parser._get_formatter()
    lines = [f"Usage: `{' '.join(formatter._format_usage(parser.usage, parser._actions, [], '').split())}`"
             .replace("Usage: `usage: ", "Usage: `"), ""]
    for group in parser._action_groups:
        shown = [action for action in group._group_actions if action.help != argparse.SUPPRESS]
        if not shown:
            continue
        lines += [f"**{group.title}**", ""]
        for action in shown:
            said = " ".join(formatter._expand_help(action).split())
            lines.append(f"- `{formatter._format_action_invocation(action)}`: {said}")
        lines.append("")
    if parser.epilog:
        lines.append(" ".join(parser.epilog.split()))
    return "\n".join(lines).rstrip("\n") + "\n"


def documented(parser: argparse.ArgumentParser | None = None) -> list[str]:
    """Every option string the parser takes (`--harness`, `-k`, ...), for the suite's checks."""
    if parser is None:
        from lab.lab_check import parser as lab_check_parser
        parser = lab_check_parser()
    return [flag for action in parser._actions for flag in action.option_strings]
