/**
 * The main app's screens, each a chunk of its own that its route loads (src/MainApp.tsx; the admin
 * area's views load from admin/<name>/index.ts). Listed here for the build: index.html preloads the
 * addressed screen with the app (scripts/routePreload.ts), and the budget counts each
 * (scripts/bundle-budget.ts). Not in routeTable.ts: the front door's app chunk carries all of that
 * module. `/c/:cid/p/:pid` before a path is its project-scoped form.
 */
export const MAIN_APP_PAGES: { path: string; page: string }[] = [
  { path: '/dashboard', page: 'portal/dashboard/DashboardPage' },
  { path: '/deployments/*', page: 'portal/deployments/DeploymentsPage' },
  { path: '/management/*', page: 'portal/management/ManagementPage' },
  { path: '/profile/*', page: 'portal/profile/ProfilePage' },
  { path: '/server-builder/*', page: 'portal/wizard/ServerBuilder' },
  { path: '/admin/companies', page: 'admin/companies/CompanyList' },
];
