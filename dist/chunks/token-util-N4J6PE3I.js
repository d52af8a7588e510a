import { createRequire as __inkwellCreateRequire } from 'node:module'; const require = __inkwellCreateRequire(import.meta.url);
import{b as a}from"./chunk-TUZAG7LI.js";import"./chunk-FV2T2CQI.js";export default a();
