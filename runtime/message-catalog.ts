// Imports every module that defines message types, so receivers that handle any subject
// (`spade tail`, dead-letter inspection) know every schema. Add new message modules here.
import './message-types.js';
import '../actors/messages.js';
import '../actors/sandbox/sandbox-messages.js';
