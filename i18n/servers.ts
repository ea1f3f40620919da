/**
 * Strings of the running-servers pages (Management › Project, dashboard, deployments, the
 * check-in warning), kept out of the front-door bundle: they join the English resources when the
 * main app loads one of these screens (`src/serversI18n.ts`).
 */
export const serversEn = {
  management: {
    project: {
      title: 'Projects',
      intro: 'Projects group the servers of {{company}}. A project with servers cannot be deleted.',
      loading: 'Loading projects…',
      loadFailed: 'The projects could not be loaded.',
      name: 'Name',
      servers: 'Servers',
      createdAt: 'Created',
      actions: 'Actions',
      current: 'current',
      createTitle: 'New project',
      newName: 'Project name',
      create: 'Create project',
      created: 'Project {{name}} created.',
      rename: 'Rename {{name}}',
      renameTitle: 'Rename project',
      renameSave: 'Save',
      renamed: 'Project renamed to {{name}}.',
      cancel: 'Cancel',
      delete: 'Delete {{name}}',
      deleteTitle: 'Delete {{name}}?',
      deleteMessage: 'The project is removed for everyone in {{company}}.',
      deleteConfirm: 'Delete project',
      deleted: 'Project {{name}} deleted.',
      hasServersTitle: '{{name}} cannot be deleted',
      hasServers_one: 'It still has {{count}} server. Delete the server first, then delete the project.',
      hasServers_other: 'It still has {{count}} servers. Delete them first, then delete the project.',
      empty: 'No projects yet',
      emptyMessage: 'Create a project to order servers in it.',
    },
  },
  nav: {
    projects: 'Projects',
    checkInWarning: 'This page has not checked in with the server for {{minutes}} minutes, so what it shows may be out of date.',
    checkInNow: 'Check in now',
    anotherSessionTitle: 'Another session detected',
  },
};
