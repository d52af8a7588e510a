import { createRequire as __inkwellCreateRequire } from 'node:module'; const require = __inkwellCreateRequire(import.meta.url);
import{b as a}from"./chunk-MF4KDG5V.js";import"./chunk-FV2T2CQI.js";export default a();
