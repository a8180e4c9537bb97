"""Charts of the debrief report, drawn on the server as SVG with matplotlib.

The Agg backend and the report's DejaVu Sans font: no display, no external font, no
request to another origin. Every chart returns an ``<svg>`` string that the HTML
and the PDF embed as is.
"""

import base64
import functools
import io
import itertools
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import cast

import matplotlib

matplotlib.use("Agg")

from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextToPath
from matplotlib.ticker import MaxNLocator

COLOURS = ["#1f5fa8", "#c2410c", "#15803d", "#7e22ce", "#b91c1c", "#0f766e"]
_XML_HEAD = re.compile(r"^.*?(<svg\b)", re.DOTALL)
_METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.DOTALL)
_LABEL = re.compile(r'aria-label="([^"]*)"')
_ID = re.compile(r'\bid="([^"]+)"')
_STYLE = re.compile(r' style="([^"]*)"')
_SHEET = re.compile(r"\s*<style[^>]*>\*\{([^}]*)\}</style>")
# Each chart's ids get their own prefix: several charts share one HTML page.
_serial = itertools.count(1)
# Margins around the axes, in points. Fixed margins instead of savefig's
# bbox_inches="tight", which draws every figure twice to measure it; only the bar
# chart's labels vary in width, and they are measured (_text_width).
_PAD = 6
_AXES_WIDTH = 390  # matplotlib's default axes in a 7-inch figure, as the charts had
_TOP = 24  # the title (10 pt) and its pad
_BOTTOM = 32  # tick labels and the axis label
_TICKS = 10  # tick marks and their pad
_text_measure = TextToPath()
# The print version of a chart (print_svg) is rewritten with ElementTree, its elements
# and xlink:href by plain names: ElementTree's global registry of namespace prefixes
# (which WeasyPrint changes) has no say in its output.
_NAMESPACES = {"xmlns": "http://www.w3.org/2000/svg", "xmlns:xlink": "http://www.w3.org/1999/xlink"}
_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_MOVES = re.compile(r"^(?:\s*[ML](?:\s+-?[\d.]+\s+-?[\d.]+)+)+\s*$")
_POINT = re.compile(r"([ML])|(-?[\d.]+)\s+(-?[\d.]+)")
_ROTATE = re.compile(r"^rotate\((-?[\d.]+) -?[\d.]+ -?[\d.]+\)$")
_URL = re.compile(r"url\(#([^)]+)\)")


def _style():
    """Return the rc settings every chart shares."""
    return {
        "font.family": "DejaVu Sans",
        "font.size": 9,
        # Text as text, in the report's own font (DejaVu Sans, report.css): a reader can
        # search and copy the charts' words, and the PDF draws them several times faster
        # than the same words as glyph outlines (the charts were half its time).
        "svg.fonttype": "none",
        "svg.hashsalt": "debrief",  # stable ids, so the same data gives the same SVG
        "axes.spines.top": False,
        "axes.spines.right": False,
        # Labels are students' nicknames: "$...$" must stay text, never become mathtext
        # (an unknown "\\cmd" would make every export of the session fail).
        "text.parse_math": False,
        "text.usetex": False,
        # A fixed title position: matplotlib otherwise measures every axis of every
        # panel to lift the title over top tick labels, which these charts never have.
        "axes.titley": 1.0,
    }


def _svg(figure: Figure, title: str) -> str:
    """Return the figure as an inline <svg> element with an accessible title."""
    buffer = io.StringIO()
    with matplotlib.rc_context(_style()):
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    svg = _METADATA.sub("", _XML_HEAD.sub(r"\1", buffer.getvalue(), count=1), count=1)
    svg = _unique_ids(_presentation(svg), f"c{next(_serial)}-")
    label = (
        title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )
    return svg.replace("<svg ", f'<svg role="img" aria-label="{label}" class="chart" ', 1)


def bar_chart(labels: list[str], values: list[int], title: str, xlabel: str = "") -> str:
    """Return a horizontal bar chart (largest on top) as SVG."""
    with matplotlib.rc_context(_style()):
        labels = [_short(label) for label in labels]
        left = max((_text_width(label, 9) for label in labels), default=0) + _TICKS + _PAD
        height = max(1.6, 0.32 * len(labels) + 0.8)
        # Room on the right for the value written after the longest bar.
        figure = _figure(height, left, right=4 * _PAD, bottom=_BOTTOM if xlabel else 16)
        axes = figure.subplots()
        positions = list(range(len(labels)))[::-1]
        axes.barh(positions, values, color=COLOURS[0])
        axes.set_yticks(positions, labels)
        for position, value in zip(positions, values, strict=True):
            axes.text(value, position, f" {value}", va="center", fontsize=8)
        axes.set_title(title, loc="left", fontsize=10)
        if xlabel:
            axes.set_xlabel(xlabel)
        # A linear axis's major locator is an AutoLocator, a MaxNLocator: the stubs say
        # only Locator, whose set_params takes no ``integer``.
        cast(MaxNLocator, axes.xaxis.get_major_locator()).set_params(integer=True)
    return _svg(figure, title)


@dataclass
class Panel:
    """One score column of a table, one value per move for each player."""

    label: str
    style: str  # "step" (a count that jumps) or "line"
    series: dict[str, list[int]]  # player's name -> values


def score_chart(panels: list[Panel], moves: list[int], title: str, xlabel: str) -> str:
    """Return one chart per score column, stacked over a shared move axis, as SVG.

    A "step" panel (a count that changes rarely) gets half the height of a "line" one.
    """
    return ScoreCharts().draw(panels, moves, title, xlabel)


class ScoreCharts:
    """Draw the score charts of several tables of one game on one figure, in turn.

    A figure's axes and their ticks took over half the time of each chart, and every
    table of a game has the same panels: the next table keeps the axes, with the
    previous lines, legend and limits gone. Each chart's SVG is the one a new figure
    would have given.
    """

    def __init__(self) -> None:
        self._figure: Figure | None = None
        self._axes: list = []
        self._styles: list[str] = []

    def draw(self, panels: list[Panel], moves: list[int], title: str, xlabel: str) -> str:
        """Return the chart of one table (see score_chart)."""
        with matplotlib.rc_context(_style()):
            # The widest tick label is about the widest value, one digit more when rounded
            # up.
            values = [v for panel in panels for series in panel.series.values() for v in series]
            widest = max((str(v) for v in values), key=len, default="0") + "0"
            height = 1.2 + 1.2 * len(panels)
            labels = _panel_labels(panels, height)
            # The panels' labels stand rotated: each of their lines takes one line's
            # height.
            lines = max((label.count("\n") + 1 for label in labels), default=1)
            left = _text_width(widest, 9) + _TICKS + 11 * lines - 2 + 2 * _PAD
            styles = [panel.style for panel in panels]
            if self._figure is None or styles != self._styles:
                self._new_figure(panels, height, left)
            else:
                _place(self._figure, height, left, right=2 * _PAD, bottom=_BOTTOM)
                self._clear()
            figure, axes = self._figure, self._axes
            assert figure is not None  # made above when there was none
            # No legend: the players' names are the page's text (``legend``), not the
            # chart's. WeasyPrint lays out an SVG text letter by letter, which breaks
            # the joined letters of Arabic and the vowel signs of Devanagari.
            for panel, label, ax in zip(panels, labels, axes, strict=True):
                for index, values in enumerate(panel.series.values()):
                    colour = colour_of(index)
                    xs, ys = _corners(moves, values, step=panel.style == "step")
                    if panel.style == "step":
                        ax.step(xs, ys, where="post", color=colour)
                    else:
                        ax.plot(xs, ys, color=colour, linewidth=1.4)
                ax.set_ylabel(label)
            axes[-1].set_xlabel(xlabel)
            axes[0].set_title(title, loc="left", fontsize=10)
        return _svg(figure, title)

    def _new_figure(self, panels: list[Panel], height: float, left: float) -> None:
        self._figure = _figure(height, left, right=2 * _PAD, bottom=_BOTTOM)
        self._styles = [panel.style for panel in panels]
        ratios = _height_ratios(panels)
        axes = self._figure.subplots(
            len(panels), 1, sharex=True, height_ratios=ratios, squeeze=False
        )
        self._axes = [row[0] for row in axes]
        for ax in self._axes:
            ax.yaxis.get_major_locator().set_params(integer=True)

    def _clear(self) -> None:
        """Remove the previous table's lines and forget its data limits."""
        for ax in self._axes:
            for line in list(ax.lines):
                line.remove()
            ax.relim()


def _height_ratios(panels: list[Panel]) -> list[int]:
    """Return the panels' heights relative to each other: a step panel is half a line's."""
    return [1 if panel.style == "step" else 2 for panel in panels]


def _panel_labels(panels: list[Panel], height: float) -> list[str]:
    """Return each panel's label, on two lines when it is longer than its panel is high:
    "Attaques réussies ou contrées" was cut at the figure's foot."""
    ratios = _height_ratios(panels)
    room = height * 72 - _TOP - _BOTTOM
    labels = []
    for panel, ratio in zip(panels, ratios, strict=True):
        tall = 0.9 * room * ratio / sum(ratios)
        label = panel.label
        if " " in label and _text_width(label, 9) > tall:
            spaces = [i for i, char in enumerate(label) if char == " "]
            middle = min(spaces, key=lambda i: abs(i - len(label) / 2))
            label = label[:middle] + "\n" + label[middle + 1 :]
        labels.append(label)
    return labels


def colour_of(index: int) -> str:
    """Return the colour of the ``index``-th series of a chart (a score chart's player)."""
    return COLOURS[index % len(COLOURS)]


def legend(names: list[str]) -> list[tuple[str, str]]:
    """Return a score chart's legend for the HTML around it: each series' name (in the
    order of ``Panel.series``) with its colour."""
    return [(name, colour_of(index)) for index, name in enumerate(names)]


def _corners(moves: list[int], values: list[int], step: bool) -> tuple[list, list]:
    """Return only the points where the drawn line turns: the same picture, fewer points.

    A score often stays put for many moves; every repeated point is a segment that the
    PDF would parse and draw for nothing. A step keeps the first point of each run of
    equal values, a line the first and the last; both keep the last point.
    """
    last = len(values) - 1
    keep = [
        i
        for i, value in enumerate(values)
        if i in (0, last) or value != values[i - 1] or (not step and value != values[i + 1])
    ]
    return [moves[i] for i in keep], [values[i] for i in keep]


def _figure(height: float, left: float, right: float, bottom: float) -> Figure:
    """Return a figure ``height`` inches high whose axes are _AXES_WIDTH wide, ``left``,
    ``right`` and ``bottom`` points from its edges, the title above them."""
    figure = Figure()
    _place(figure, height, left, right, bottom)
    return figure


def _place(figure: Figure, height: float, left: float, right: float, bottom: float) -> None:
    """Size the figure and place its axes as _figure describes."""
    width = left + _AXES_WIDTH + right
    figure.set_size_inches(width / 72, height)
    figure.subplots_adjust(
        left=left / width,
        right=1 - right / width,
        bottom=bottom / (height * 72),
        top=1 - _TOP / (height * 72),
    )


# Tick labels and numbers come back chart after chart: measure each once.
@functools.lru_cache(maxsize=4096)
def _text_width(text: str, size: float) -> float:
    """Return the width of ``text`` in points, in the charts' font, without drawing it."""
    font = FontProperties(family="DejaVu Sans", size=size)
    width, _height, _descent = _text_measure.get_text_width_height_descent(text, font, ismath=False)
    return width


def as_img(svg: str) -> str:
    """Return the chart as an <img> with a data: URI (the PDF draws it as an image)."""
    if not svg:
        return ""
    label = _LABEL.search(svg)
    alt = label.group(1) if label else ""
    data = base64.b64encode(print_svg(svg).encode("utf-8")).decode("ascii")
    return f'<img class="chart" alt="{alt}" src="data:image/svg+xml;base64,{data}">'


def print_svg(svg: str) -> str:
    """Return the same drawing in fewer, simpler elements, for the PDF.

    WeasyPrint draws a chart element by element, saving and restoring the graphics
    state around each: the charts were a third of the PDF's drawing time. Here
    matplotlib's groups that only name their content go, tick marks become one path
    per axis instead of a <use> each, and a label centred or ending on its point starts
    where it would have started (WeasyPrint draws a label that is not left-aligned
    into a group of its own, to measure it).
    """
    root = ET.fromstring(svg)
    for element in root.iter():
        element.tag = element.tag.rpartition("}")[2]
        if _XLINK_HREF in element.attrib:
            element.set("xlink:href", element.attrib.pop(_XLINK_HREF))
    markers = {
        path.get("id"): path
        for defs in root.iter("defs")
        for path in defs.iter("path")
        if _MOVES.match(path.get("d", ""))
    }
    _flatten(root)
    for parent in root.iter():
        _merge_ticks(parent, markers)
    for text in root.iter("text"):
        _start_anchor(text)
    used = {
        match for element in root.iter() for match in _URL.findall(element.get("clip-path", ""))
    }
    used |= {element.get("xlink:href", "")[1:] for element in root.iter("use")}
    for parent in list(root.iter()):
        for child in list(parent):
            if child.tag == "defs":
                for path in list(child):
                    if path.get("id") in markers and path.get("id") not in used:
                        child.remove(path)
                if len(child) == 0:
                    parent.remove(child)
            elif child.get("id") is not None and child.get("id") not in used:
                del child.attrib["id"]
    root.attrib = {**_NAMESPACES, **root.attrib}
    return ET.tostring(root, encoding="unicode")


def _flatten(parent: ET.Element) -> None:
    """Replace every group with nothing but an id by its content, recursively."""
    children: list[ET.Element] = []
    for child in parent:
        _flatten(child)
        if child.tag == "g" and set(child.attrib) <= {"id"}:
            children.extend(child)
        else:
            children.append(child)
    parent[:] = children


def _merge_ticks(parent: ET.Element, markers: dict[str | None, ET.Element]) -> None:
    """Draw a run of <use>s of a marker made of straight lines (tick marks, between
    their labels) as one path, where the first one was."""
    merged: dict[tuple, ET.Element] = {}
    children = []
    for child in parent:
        marker = markers.get(child.get("xlink:href", "")[1:])
        if child.tag != "use" or marker is None:
            children.append(child)
            # Tick marks move over tick labels only, never over anything that is drawn.
            if child.tag != "text":
                merged = {}
            continue
        # The marker's own attributes win over the <use>'s, as they would for a <use>.
        attributes = {k: v for k, v in child.attrib.items() if k not in ("xlink:href", "x", "y")}
        attributes.update((k, v) for k, v in marker.attrib.items() if k not in ("id", "d"))
        # A marker has its "d" (``_MOVES`` matched it), as has a path merged here.
        d = _moved(marker.get("d", ""), float(child.get("x", 0)), float(child.get("y", 0)))
        key = tuple(sorted(attributes.items()))
        if key in merged:
            merged[key].set("d", merged[key].get("d", "") + " " + d)
        else:
            merged[key] = ET.Element("path", {"d": d, **attributes})
            children.append(merged[key])
    parent[:] = children


def _moved(d: str, dx: float, dy: float) -> str:
    """Return path data made of M and L commands moved by (dx, dy)."""
    return " ".join(
        command or f"{float(x) + dx:.3f} {float(y) + dy:.3f}" for command, x, y in _POINT.findall(d)
    )


def _start_anchor(text: ET.Element) -> None:
    """Make a label start-anchored at the point where it starts; drop a zero rotation."""
    rotate = _ROTATE.match(text.get("transform", ""))
    if rotate and float(rotate.group(1)) == 0:
        del text.attrib["transform"]
    anchor = text.attrib.pop("text-anchor", "start")
    if anchor == "start":
        return
    if len(text) or not text.text:  # not one plain run of text: left as it was
        text.set("text-anchor", anchor)
        return
    size = float(text.get("font-size", "9px").removesuffix("px"))
    width = _text_width(text.text, size)
    shift = width if anchor == "end" else width / 2
    # A rotated label keeps its rotation's centre: the shift runs along its baseline.
    text.set("x", f"{float(text.get('x', 0)) - shift:.3f}")


def _presentation(svg: str) -> str:
    """Write the SVG's styles as presentation attributes: the same drawing, but the PDF
    reads an attribute where it parsed a CSS declaration list on every element.

    matplotlib styles leaf elements only; its one rule for every element (line joins
    and caps) goes on the root, whence it is inherited where no element sets its own.
    """

    def attributes(declarations: str) -> str:
        pairs = (item.split(":", 1) for item in declarations.split(";") if ":" in item)
        return "".join(f' {name.strip()}="{value.strip()}"' for name, value in pairs)

    sheet = _SHEET.search(svg)
    if sheet:
        svg = svg[: sheet.start()] + svg[sheet.end() :]
        svg = svg.replace("<svg ", "<svg" + attributes(sheet.group(1)) + " ", 1)
    return _STYLE.sub(lambda match: attributes(match.group(1)), svg)


def _unique_ids(svg: str, prefix: str) -> str:
    """Prefix every id of the SVG and every reference to one (url(#x), href="#x")."""
    ids = set(_ID.findall(svg))
    if not ids:
        return svg
    pattern = re.compile(
        r'(id="|#)(' + "|".join(map(re.escape, sorted(ids, key=len)[::-1])) + r')(?=["\)])'
    )
    return pattern.sub(lambda m: m.group(1) + prefix + m.group(2), svg)


def _short(text: str, size: int = 42) -> str:
    """Return text cut to ``size`` characters with an ellipsis."""
    return text if len(text) <= size else text[: size - 1] + "…"
