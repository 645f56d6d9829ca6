"""What every board picture must be: XML, self-contained, each element named by a <title>."""

from __future__ import annotations

import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
SHAPES = {"rect", "circle", "polygon", "text", "g"}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def ids(root: ET.Element, prefix: str) -> set[str]:
    return {str(e.get("id"))[len(prefix):] for e in root.iter() if str(e.get("id", "")).startswith(prefix)}


def problems(svg: str) -> list[str]:
    """Every way the picture is not self-contained, or has an element nobody can hover to name."""
    root = parse(svg)
    found = []
    parents = {child: parent for parent in root.iter() for child in parent}
    for element in root.iter():
        tag = element.tag.removeprefix(NS)
        if tag in {"script", "image", "use", "foreignObject", "style", "link"}:
            found.append(f"<{tag}> element")
        for name, value in element.attrib.items():
            if name.endswith("href") or "url(" in value:
                found.append(f"external reference {name}={value}")
        if tag in SHAPES:
            titled = element.find(f"{NS}title") is not None
            parent = parents.get(element)
            grouped = parent is not None and parent.tag == f"{NS}g" and parent.find(f"{NS}title") is not None
            if not titled and not grouped:
                found.append(f"<{tag}> without a title")
    if "http://" in svg.replace('xmlns="http://www.w3.org/2000/svg"', "") or "https://" in svg:
        found.append("a web address")
    return found
