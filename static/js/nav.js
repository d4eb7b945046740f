// Moving between pages without reloading: main.js registers how a page is drawn; pages only
// ask to go somewhere (so no page imports main.js).
let draw = () => {};

export function onNavigate(fn) { draw = fn; }

export function navigate(path) {
  history.pushState({}, "", path);
  draw();
}
