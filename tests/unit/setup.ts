import { configure } from '@testing-library/dom';

// findBy… and waitFor wait for what the user sees: a busy CI machine can take more than the default
// second to load a page's lazy parts, and a wait ends as soon as the thing shows.
configure({ asyncUtilTimeout: 5_000 });
