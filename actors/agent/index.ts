// Public entry of the agent role.
export { createAgentActor, type AgentActor, type AgentActorOptions, type AgentStats } from './agent-actor.js';
export { playGroup, playEpisode, planEpisodes, groupIdOf, type AgentDeps, type EpisodePlan } from './play.js';
