import { Module } from '@nestjs/common';
import { OrganizationsAndTeamsModule } from '@app/organizations-and-teams';
import { AgentInstructionsRepository, AgentInstructionsService } from './application/agent-instructions.service';
import { ConversationProcessing } from './application/conversation-processing.service';
import { ConversationsService } from './application/conversations.service';
import { TextClustering } from './application/text-clustering.service';
import { ConversationEvents } from './application/conversation-events';
import { ConversationRepository, ClusterTasks } from './domain/conversation-ports';
import { IssueWriter } from './domain/issue-extraction';
import { TextAnalyzer } from './domain/clustering';
import { ConversationsSettings } from './application/conversations-settings';
import { ChatCompletionsIssueWriter } from './infrastructure/chat-completions-issue-writer';
import { AgentInstructionsController } from './http/agent-instructions.controller';
import { ConversationsController } from './http/conversations.controller';
import { RenderedClusters } from './http/rendered-clusters';
import { SqlAgentInstructionsRepository } from './infrastructure/agent-instructions.repository';
import { SqlConversationRepository } from './infrastructure/conversations.repository';
import { WinkTextAnalyzer } from './infrastructure/wink-text-analyzer';
import { AccessModule } from '@app/access';
import { SqlClusterTasks } from './infrastructure/cluster-tasks.repository';

/** Support conversations, issue clustering and the organization's agent instructions. */
@Module({
  imports: [AccessModule, OrganizationsAndTeamsModule],
  controllers: [ConversationsController, AgentInstructionsController],
  providers: [
    ConversationsService,
    ConversationProcessing,
    AgentInstructionsService,
    RenderedClusters,
    ConversationEvents,
    TextClustering,
    { provide: ConversationRepository, useClass: SqlConversationRepository },
    { provide: ClusterTasks, useClass: SqlClusterTasks },
    { provide: AgentInstructionsRepository, useClass: SqlAgentInstructionsRepository },
    { provide: TextAnalyzer, useClass: WinkTextAnalyzer },
    {
      provide: IssueWriter,
      useFactory: (settings?: ConversationsSettings) =>
        settings?.llm ? new ChatCompletionsIssueWriter(settings.llm.url, settings.llm.model, settings.llm.apiKey) : null,
      inject: [{ token: ConversationsSettings, optional: true }],
    },
  ],
  exports: [ConversationsService, ConversationProcessing, TextClustering],
})
export class ConversationsModule {}

/**
 * The clustering for another context's texts outside the application (its quality tests, benches): the same
 * algorithm on the same analyzer (wink-nlp and its word vectors) the module provides.
 */
export function standaloneTextClustering(): TextClustering {
  return new TextClustering(new WinkTextAnalyzer());
}
