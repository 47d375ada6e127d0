// css-tree publishes its parser and walker as separate entry points, which load about 4 MB less
// than the whole package (no lexer and its syntax data); @types/css-tree types only the whole one.
declare module 'css-tree/parser' {
  import { parse } from 'css-tree';
  export default parse;
}
declare module 'css-tree/walker' {
  import { walk } from 'css-tree';
  export default walk;
}
