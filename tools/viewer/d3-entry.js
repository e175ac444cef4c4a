// The parts of d3 the viewer uses (src/*.js), bundled by the build (esbuild, tree-shaken) into
// the one script served at /vendor/d3.min.js: a fraction of the full d3, so the page starts
// sooner. Using another d3 function in a module means adding it here; the e2e test runs against
// this bundle and fails otherwise. (`serve --static` serves the full d3 instead.)
export {
  axisBottom, axisLeft,
  easeCubicOut,
  format,
  hierarchy, tree,
  line,
  max, min, range,
  pointer, select,
  scaleBand, scaleLinear, scaleLog,
  zoom, zoomIdentity,
} from 'd3';
