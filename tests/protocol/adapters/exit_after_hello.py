"""Answers hello, then exits at once: every scenario errors, a broken adapter."""

from _common import answer, messages, send

for message in messages():
    send(answer(message))
    break
