"use strict";
/**
 * Whereabouts for JavaScript: the types of every method, result, event and error, exactly as the
 * native `Bridge` encodes them. Times are JavaScript milliseconds since 1970 (`Date.now()`); a value
 * the native side does not know is `null`, never left out, unless the type marks it optional.
 */
Object.defineProperty(exports, "__esModule", { value: true });
