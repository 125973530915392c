// Written by scripts/maps/build.mjs (`make maps`): the backdrop file of each board.
export const MAP_OF = {
  "europe": "europe",
  "switzerland": "switzerland",
  "usa-1910": "usa",
  "usa-bigcities": "usa",
  "usa-mega": "usa",
  "usa": "usa"
};
