// A place at the window's right edge for a box of the given size that covers no text of the page:
// tried from the bottom up, then the top down is the same list; when no spot is free, the bottom.
export function freeSpot(width: number, height: number, own: Element): { top: number } {
  const left = innerWidth - width;
  for (let top = innerHeight - height - 16; top >= 8; top -= Math.max(24, height / 2)) {
    if (!coversText(new DOMRect(left, top, width, height), own)) return { top };
  }
  return { top: innerHeight - height - 16 };
}

// Whether any text of the page (not the extension's own layer) shows inside `box`.
function coversText(box: DOMRect, own: Element): boolean {
  const elements = new Set<Element>();
  for (const x of [box.left + 1, box.left + box.width / 2, box.right - 1])
    for (const y of [box.top + 1, box.top + box.height / 2, box.bottom - 1])
      for (const element of document.elementsFromPoint(x, y)) if (element !== own) elements.add(element);
  for (const element of elements)
    for (const node of Array.from(element.childNodes)) {
      if (node.nodeType !== Node.TEXT_NODE || !node.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of Array.from(range.getClientRects()))
        if (rect.left < box.right && rect.right > box.left && rect.top < box.bottom && rect.bottom > box.top) return true;
    }
  return false;
}
