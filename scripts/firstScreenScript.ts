/**
 * The source of the first-screen script (scripts/prerender.ts writes it): the table of prerendered
 * pages, and what picks the addressed one and puts it into #root before the app's scripts run.
 */
import { CHECK_INVITED_PATH } from '../dataProvider/companies';
import { API_BASE } from '../dataProvider/httpClient';
import { en } from '../i18n/en';
import { INTRO_ATTRIBUTE, INVITED_PATH, invitationIntro, sendFirstScreenCheck, tokenOf } from '../portal/auth/invitationFirstScreen';
import { COMPANY_ROLES } from '../src/domain/constants';
import { FIRST_SCREEN_ATTRIBUTE } from '../src/firstScreen';

/** Which addresses show which prerendered page (scripts/prerender.ts's prerenderedPaths). */
export interface FirstScreenPaths {
  /** A redirect's address → the page it shows. */
  aliases: Record<string, string>;
  /** A page → the query parameters that leave its first screen as it is. */
  queries: Record<string, string[]>;
}

/**
 * The pages' markup, with their style tags taken out into one table (pages share most rules): a
 * page is the list of its style tags, in order, and its markup.
 */
export function splitStyles(rendered: Record<string, string>): { styles: string[][]; pages: Record<string, [number[], string]> } {
  const styles: string[][] = [];
  const index = new Map<string, number>();
  const pages: Record<string, [number[], string]> = {};
  for (const [path, html] of Object.entries(rendered)) {
    const used: number[] = [];
    const markup = html.replace(/<style data-emotion="([^"]*)">([\s\S]*?)<\/style>/g, (_tag, attr: string, css: string) => {
      const key = `${attr}\u0000${css}`;
      let i = index.get(key);
      if (i === undefined) {
        i = styles.push([attr, css]) - 1;
        index.set(key, i);
      }
      used.push(i);
      return '';
    });
    pages[path] = [used, markup];
  }
  return { styles, pages };
}

/**
 * What the first screen needs to send the invitation's check and write its intro: the strings of
 * the intro (the build's English, as the prerendered markup), and which roles it names.
 */
export function invitationSetup() {
  const strings: Record<string, string> = { 'invited.intro': en.invited.intro, 'invited.role': en.invited.role };
  for (const role of COMPANY_ROLES) strings[`invited.roles.${role}`] = en.invited.roles[role];
  return { path: INVITED_PATH, url: `${API_BASE}${CHECK_INVITED_PATH}`, selector: `[${INTRO_ATTRIBUTE}]`, strings, roles: COMPANY_ROLES };
}

/**
 * The browser side: puts the addressed page's markup into #root, if this server shows it as
 * rendered, and its styles into the head as emotion's cache finds what it adopts: the page's rules
 * in one style tag naming every rule it holds, each global style in a tag of its own, all marked
 * `data-s` so that emotion does not move them. #root is inert until the app has taken the screen
 * over, and names the address it shows (the app hydrates it only for that address). A redirect's
 * address goes to its target here, as the app's redirect would take it, so that the app's first
 * render is the page on screen. One tag, where the render makes one per rule: emotion
 * moving some fifty tags out of #root, each parsed again, took 30 to 40 ms of the shell's first
 * task on a simulated phone. The invitation's functions go in as their source; `t` looks a string up
 * and fills its `{{name}}`s as the app's translator does.
 */
/** A value as a JavaScript literal that cannot end the inline script holding it (no `</script`, no `<!--`). */
const literal = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export function pickerSource(rendered: Record<string, string>, paths: FirstScreenPaths, productName: string): string {
  const { styles, pages } = splitStyles(rendered);
  return `(function(){
var styles=${literal(styles)},pages=${literal(pages)},aliases=${literal(paths.aliases)},queries=${literal(paths.queries)},invitation=${literal(invitationSetup())};
var cfg;try{cfg=JSON.parse(document.querySelector('meta[name="client-config"]').content)}catch(e){return}
if(!cfg||cfg.productName!==${literal(productName)}||cfg.serverDashboard)return;
var path=location.hash.replace(/^#/,'')||'/',q=path.indexOf('?'),query='';
if(q>=0){query=path.slice(q+1);var params=query.split('&');path=path.slice(0,q);
for(var k=0;k<params.length;k++){var name=decodeURIComponent(params[k].split('=')[0]);if(!queries[path]||queries[path].indexOf(name)<0)return}}
var alias=aliases[path];if(alias)path=alias;
var page=(cfg.googleClientId&&pages['g'+path])||pages[path];
var root=document.getElementById('root');
if(!page||!root||root.firstChild)return;
var globals='',ids='',css='';
for(var i=0;i<page[0].length;i++){var s=styles[page[0][i]];
if(s[0].indexOf('css ')===0){ids+=s[0].slice(3);css+=s[1]}else globals+='<style data-s="" data-emotion="'+s[0]+'">'+s[1]+'</style>'}
document.head.insertAdjacentHTML('beforeend',globals+(ids?'<style data-s="" data-emotion="css'+ids+'">'+css+'</style>':''));
root.innerHTML=page[1];
if(alias)history.replaceState(history.state,'','#'+alias);
root.setAttribute('inert','');root.setAttribute(${literal(FIRST_SCREEN_ATTRIBUTE)},location.hash);
if(path!==invitation.path)return;
var token=(${tokenOf.toString()})(new URLSearchParams(query));
if(!token)return;
var t=function(key,values){var s=invitation.strings[key];return s===undefined?key:s.replace(/{{\\s*([^{}]+?)\\s*}}/g,function(whole,name){return name in values?String(values[name]):whole})};
(${sendFirstScreenCheck.toString()})(root,token,invitation.url,invitation.selector,function(found){return (${invitationIntro.toString()})(found,t,invitation.roles)});
})();
`;
}
