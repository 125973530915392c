// The land and sea behind a board: Natural Earth's land, its coast (less where the build
// cut it at the frame), lakes and (on Switzerland) the country and its neighbours'
// borders, already placed in the board's own coordinates by scripts/maps (`make maps`),
// read from maps/<map>.json. Drawn under the routes and cities, it takes no clicks.

import { MAP_OF } from "./maps/index.js";

const SVG = "http://www.w3.org/2000/svg";
const files = new Map();

function read(map) {
  if (!files.has(map)) {
    const url = new URL(`./maps/${map}.json`, import.meta.url);
    files.set(map, fetch(url).then((r) => (r.ok ? r.json() : null)).catch(() => null));
  }
  return files.get(map);
}

// Fills the layer (an SVG group) once the board's map is read; a board without one keeps
// the plain sea. Resolves to whether a map was drawn.
export async function drawBackdrop(layer, boardId) {
  const map = MAP_OF[boardId];
  const data = map ? await read(map) : null;
  if (!data) return false;
  const path = (cls, d) => {
    if (!d) return;
    const node = document.createElementNS(SVG, "path");
    node.setAttribute("class", cls);
    node.setAttribute("d", d);
    layer.appendChild(node);
  };
  path("land", data.land);
  path("home", data.home);
  path("lake", data.lakes);
  path("coast", data.coast);
  path("border", data.borders);
  layer.setAttribute("data-map", map);
  return true;
}
