/** A task's assigned admin as the admin screens show it: "Name <email>", the email alone when unnamed, '' when unassigned. */
export function assigneeLabel(task: { assigneeName: string | null; assigneeEmail: string | null }): string {
  if (!task.assigneeEmail) return '';
  return task.assigneeName ? `${task.assigneeName} <${task.assigneeEmail}>` : task.assigneeEmail;
}
