/* Entry point of the play and projector pages: load every game's renderer, then start. */

import { boot } from "./client.js";
import "./conspiranoia.js";
import "./data_monsters.js";
import "./data_thief.js";
import "./data_tycoon.js";

const root = document.getElementById("game");
if (root) boot(root);
