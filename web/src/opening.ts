// The app's first statement (main.tsx imports it before React): the opening screen's calls start now.
import { startFirstCalls } from './first-calls.ts';

startFirstCalls();
