"""Runs of many fights in a page, step by step: « Simuler », « Arrêter », a progress bar.

A run is an iterator of steps (:func:`escarmouche.simulation.simulate_steps`: the
balance after each :data:`STEP` fights). In a running event loop (a live page: the
browser's Pyodide kernel, or Jupyter's) :meth:`Stepper.start` plays it as an asyncio task
that hands control back after each step, so the progress bar moves and a click on
« Arrêter » is received: the run stops before its next step and the last step's result
is shown (each fight has its own random stream, so it is exactly the result of the fights
played). Outside a running loop (a script, a test, the book's build) the caller plays the
steps at once (:meth:`Stepper.run_now`).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, TypeVar

import ipywidgets as widgets

from escarmouche.errors import EscarmoucheError
from escarmouche.text.fmt import number, plural
from escarmouche_widgets import _html as h
from escarmouche_widgets._controls import button

__all__ = ["STEP", "Stepper", "running_loop"]

#: fights played between two looks at the page (progress, « Arrêter »)
STEP = 500

T = TypeVar("T")


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running now (a live page), or ``None`` (a script, a test). In
    Pyodide the browser's event loop (``WebLoop``) always runs, even when a widget's
    callback is called from JavaScript outside any task."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        pass
    if sys.platform == "emscripten":
        return asyncio.get_event_loop()
    return None


class Stepper:
    """The controls of a run: ``run_button`` (its label given), ``stop_button``
    (« Arrêter »), ``progress`` and ``progress_label`` (« 4 000 combats sur 20 000 »),
    in ``widget``. The owner wires ``run_button`` to its own method."""

    def __init__(self, label: str = "Simuler") -> None:
        self.run_button = button(label, button_style="primary", icon="play")
        self.stop_button = button("Arrêter", icon="stop", disabled=True)
        self.stop_button.on_click(lambda _b: self.stop())
        self.progress = widgets.IntProgress(value=0, min=0, max=1,
                                            layout=widgets.Layout(width="16em"))
        self.progress_label = widgets.HTML(value="")
        self.widget = widgets.HBox(
            [self.run_button, self.stop_button, self.progress, self.progress_label],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        self._stopping = False
        self.task: Any = None

    @property
    def running(self) -> bool:
        return self.task is not None

    def show(self, done: int, total: int) -> None:
        """Move the progress bar: ``done`` fights of ``total``."""
        self.progress.max = max(total, 1)
        self.progress.value = min(done, total)
        self.progress_label.value = h.esc(f"{plural(done, 'combat')} sur {number(total)}")

    def stop(self) -> None:
        """« Arrêter » : the run stops before its next step."""
        self._stopping = True

    def run_now(self, steps: Iterator[T], fights: Callable[[T], int], total: int) -> T:
        """Play every step now (no event loop to hand back to); the last step."""
        last = None
        for last in steps:
            self.show(fights(last), total)
        if last is None:
            raise ValueError("une série de combats sans aucune étape")
        return last

    def start(self, loop: asyncio.AbstractEventLoop, steps: Iterator[T] | AsyncIterator[T],
              fights: Callable[[T], int], total: int, done: Callable[[T], object],
              refused: Callable[[EscarmoucheError], object]) -> None:
        """Play ``steps`` as a task of ``loop``; ``done(last step)`` when it ends or is
        stopped, ``refused(error)`` if the engine refuses something on the way. Steps
        played elsewhere (the browser's pool of workers) come as an async iterator,
        closed on « Arrêter »."""
        self._stopping = False
        self.run_button.disabled, self.stop_button.disabled = True, False
        self.task = loop.create_task(self._play(steps, fights, total, done, refused))

    async def _play(self, steps: Iterator[T] | AsyncIterator[T],
                    fights: Callable[[T], int], total: int,
                    done: Callable[[T], object],
                    refused: Callable[[EscarmoucheError], object]) -> None:
        last = None
        try:
            while not self._stopping:  # « Arrêter »: no further step is played
                if isinstance(steps, Iterator):
                    played = next(steps, None)
                else:
                    played = await anext(steps, None)
                if played is None:
                    break
                last = played
                self.show(fights(last), total)
                await asyncio.sleep(0)  # the page (a click on « Arrêter ») gets its turn
            if last is not None:
                done(last)
        except EscarmoucheError as err:  # refused on the way: shown, never a traceback
            refused(err)
        finally:
            if not isinstance(steps, Iterator):
                await steps.aclose()  # type: ignore[attr-defined]  # the workers' queue dropped
            self.task = None
            self.run_button.disabled, self.stop_button.disabled = False, True
