// The bench's port picker (dependency-free): ports held together until all are picked, so none comes twice.
export { freePort, freePorts } from '../../bench/ports.js';
