/**
 * The one zod every schema in Yoke uses: `zod/mini`, with English error messages.
 *
 * Why mini: classic zod builds a method-rich object for every schema and cannot be tree-shaken;
 * importing it costs about 7 ms of a start even from a code cache, while the functional mini API
 * costs well under 1 ms. Mini ships without messages ("Invalid input"), so the English locale is
 * installed here, once, before any schema parses.
 */
import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config(en());

export * from 'zod/mini';
