/**
 * What records call the model of a served run (`spiralbench serve`): the simulated model,
 * reached by an agent outside the harness. Results readers tell a served folder by it, as
 * its advice differs: serve has no --resume.
 */
export const SERVED_MODEL = 'simulated-served';
