// dynalite ships no types; this is the part of its API the tests use.
declare module 'dynalite' {
  import type { Server } from 'node:http';

  interface DynaliteOptions {
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    /** A LevelDB folder; in memory when absent. */
    path?: string;
  }

  export default function dynalite(options?: DynaliteOptions): Server;
}
