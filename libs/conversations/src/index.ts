// The public surface of the conversations context. Other contexts import only this file.
export { ConversationsModule, standaloneTextClustering } from './conversations.module';
export { ConversationsService } from './application/conversations.service';
export { ConversationProcessing, PROCESS_QUEUE, SWEEP_QUEUE } from './application/conversation-processing.service';
export { AgentInstructionsService } from './application/agent-instructions.service';
// The clustering algorithm for another context's texts (site insights' topics).
export { TextClustering } from './application/text-clustering.service';
// The port the context owning change requests provides (tasks of a cluster).
export { CONVERSATION_EVENT_TYPES } from './application/conversation-events';
export type { ConversationEventType } from './application/conversation-events';
export { ConversationsSettings } from './application/conversations-settings';
// The clustering algorithm's version (an organization clustered by an older one is clustered again).
export { CLUSTERING_ALGORITHM } from './domain/clustering';
